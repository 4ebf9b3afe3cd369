extension Workload {
    /// W1-batch (spec §7.2): insert 100k `Item` objects (object `i` holding `(i, …, i)`) into a new
    /// store with one `NSBatchInsertRequest` whose dictionary handler fills one row per call.
    ///
    /// Peers: raw prepared INSERT in one transaction (W1's raw peer); GRDB one cached positional
    /// statement executed per row in one `write` (the GRDB form of a bulk insert, no records);
    /// ours `NSBatchInsertRequest(entityName:dictionaryHandler:)` with `resultType = .count`; and
    /// ours W1 (`insertNewObject` + `setValue` + one `save()`) as `ours-save`, for the speed-up.
    /// The checksum is the object count plus the row count and attribute sum read back from the
    /// file. Goals: ours ≤ 2× raw (`raw=`), ≥ 5× faster than W1 (`faster_than_save=`).
    static var w1BatchInsertItems: Workload {
        var peers = [RawSQLitePeers.insertItems, GRDBPeers.insertItemsWithStatement]
        #if canImport(CoreData)
        peers += [CoreDataPeers.batchInsertItems, CoreDataPeers.insertItemsBySave]
        #endif
        return itemInsert(
            name: "W1-batch",
            group: "W1",
            summary: "batch insert Item objects (10 × Int64) into a new store, dictionary handler",
            peers: peers,
            results: [
                ResultLine(
                    label: "W1-batch", ours: "ours-batch", raw: "raw", grdb: "grdb-statement",
                    extras: [.timesFaster(field: "faster_than_save", than: "ours-save")]),
            ],
            measuresMemory: true,
            supportsRollback: true)
    }
}
