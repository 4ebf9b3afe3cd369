import GRDB

extension GRDBPeers {
    /// W10 GRDB, struct records: for each target item, change `i1`, then
    /// `queue.write { try item.update(db) }` (one transaction per save, every column written).
    static var updateItemStructs: Peer {
        updatePeer(named: "grdb-struct", GRDBItem.self) { item, index, db in
            var item = item
            item.i1 = Workload.w10NewValue(forItem: index)
            try item.update(db)
        }
    }

    /// W10 GRDB, `Record` class (the change-tracking peer): for each target record, change `i1`,
    /// then `queue.write { try record.updateChanges(db) }` (one transaction per save, the changed
    /// column only). The GRDB figure of W10's `RESULT` line.
    static var updateItemRecords: Peer {
        updatePeer(named: "grdb-record", GRDBItemRecord.self) { record, index, db in
            record.i1 = Workload.w10NewValue(forItem: index)
            guard try record.updateChanges(db) else {
                throw BenchmarkError.unexpectedValue(peer: "grdb-record", detail: "updateChanges found no change")
            }
        }
    }

    /// A W10 peer: one `queue.write` per target running `update`. Set-up (not measured): open the
    /// queue on the fixture copy, fetch the target records by primary key.
    private static func updatePeer<Record: FetchableRecord & TableRecord>(
        named name: String, _ type: Record.Type, update: @escaping (Record, _ index: Int, Database) throws -> Void
    ) -> Peer {
        Peer(name: name, family: .grdb) { input in
            let queue = try openQueue(at: input.storeURL, settings: input.settings)
            let targets = Workload.w10Targets(count: input.count)
            let records = try queue.read { db in try Record.fetchAll(db, keys: targets.map { Int64($0) + 1 }) }
            guard records.count == targets.count else {
                throw BenchmarkError.unexpectedValue(peer: name, detail: "fetched \(records.count) of \(targets.count) records")
            }
            return PreparedRun(
                body: {
                    for (record, index) in zip(records, targets) {
                        try queue.write { db in try update(record, index, db) }
                    }
                    return Int64(targets.count)
                },
                tearDown: { try queue.close() })
        }
    }
}
