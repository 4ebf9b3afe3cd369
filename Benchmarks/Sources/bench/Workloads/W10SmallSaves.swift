extension Workload {
    /// How many saves (or transactions) each W10 run makes, each of one changed object.
    static let w10SavesPerRun = 1_000

    /// The attribute each W10 save changes.
    static let w10UpdatedAttribute = "i1"

    /// The 0-based indexes of the objects W10 changes in a store of `count` items, one per save,
    /// in save order: ``w10SavesPerRun`` objects spread evenly over the table (fewer if the store
    /// is smaller). Item `i` has `Z_PK = i + 1`.
    static func w10Targets(count: Int) -> [Int] {
        let saves = min(w10SavesPerRun, count)
        let stride = max(count / max(saves, 1), 1)
        return (0..<saves).map { $0 * stride }
    }

    /// The value W10 writes into ``w10UpdatedAttribute`` of item `index`, which holds `index`
    /// before: one more, so that each save adds 1 to the store's attribute sum.
    static func w10NewValue(forItem index: Int) -> Int64 {
        Int64(index) + 1
    }

    /// W10 (spec §7.2): small-save latency. 1,000 saves of one changed object each (one attribute
    /// of one object updated per save) on a store of 100k `Item` objects (``Fixture/items``, shared
    /// with W2). `--count` is the store's size.
    ///
    /// Peers: raw autocommit `UPDATE` (the statement our store runs, prepared once, stepped once per
    /// save, no explicit transaction); GRDB `queue.write { record.update(db) }` with a struct
    /// record (`grdb-struct`) and `queue.write { record.updateChanges(db) }` with a `Record` class
    /// (`grdb-record`, the change-tracking peer); ours: `setValue(_:forKey:)` then `save()`, the
    /// 1,000 saves in one `performAndWait`. The objects are fetched or looked up in set-up, not
    /// measured. The checksum is the number of saves plus the row count and attribute sum read
    /// back from the peer's file.
    ///
    /// `RESULT W10`: ours/raw, ours/grdb-record and `over_raw_us=`, the extra time per save.
    /// Goal: ours ≤ raw + 30 µs per save at the same synchronous level. Also runs with rollback +
    /// `FULL` (`--journal rollback|both`).
    static var w10SmallSaves: Workload {
        var peers = [
            RawSQLitePeers.updateItemsAutocommit,
            GRDBPeers.updateItemStructs,
            GRDBPeers.updateItemRecords,
        ]
        #if canImport(CoreData)
        peers.append(CoreDataPeers.saveItemUpdates)
        #endif
        return Workload(
            name: "W10",
            summary: "small-save latency: \(w10SavesPerRun) saves of 1 changed object each (µs/object: per store object)",
            defaultCount: 100_000,
            fixture: .items,
            peers: peers,
            expectedChecksum: { count in
                let saves = Int64(w10Targets(count: count).count)
                return Checksum(values: [saves, Int64(count), ItemTable.attributeSum(count: count) + saves])
            },
            storeChecksum: ItemTable.storeChecksum(at:),
            results: [
                ResultLine(
                    label: "W10", ours: "ours", raw: "raw", grdb: "grdb-record",
                    extras: [.microsecondsOverRaw(operationsPerRun: w10SavesPerRun)]),
            ],
            supportsRollback: true)
    }
}
