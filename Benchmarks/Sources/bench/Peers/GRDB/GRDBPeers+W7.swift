import GRDB

extension GRDBPeers {
    /// W7a GRDB: `filter(Column("ZSCORE") < k).updateAll(db, [ZFLAG.set(to: true), Z_OPT += 1])`
    /// in one `write`.
    static var batchUpdateFlags: Peer {
        batchPeer { request, db in
            try request.updateAll(db, [Column("ZFLAG").set(to: true), Column("Z_OPT") += 1])
        }
    }

    /// W7b GRDB: `filter(Column("ZSCORE") < k).deleteAll(db)` in one `write`.
    static var batchDeleteItems: Peer {
        batchPeer { request, db in try request.deleteAll(db) }
    }

    /// A W7 peer: `change` applied to the rows whose score is below
    /// ``ScoredItemTable/batchScoreBound(count:)``; returns the number of rows it changed. Set-up
    /// (not measured): open the queue on the fixture copy.
    private static func batchPeer(change: @escaping (QueryInterfaceRequest<GRDBScoredItem>, Database) throws -> Int) -> Peer {
        Peer(name: "grdb", family: .grdb) { input in
            let queue = try openQueue(at: input.storeURL, settings: input.settings)
            let request = GRDBScoredItem.filter(Column("ZSCORE") < ScoredItemTable.batchScoreBound(count: input.count))
            return PreparedRun(
                body: { Int64(try queue.write { db in try change(request, db) }) },
                tearDown: { try queue.close() })
        }
    }
}
