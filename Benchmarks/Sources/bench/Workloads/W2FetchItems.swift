extension Workload {
    /// W2 (spec §7.2): fetch 100k `Item` objects and read all ten attributes of each.
    ///
    /// The fixture (``Fixture/items``, shared with W10) is made by our own Core Data (W1's insert
    /// and save) so that it carries our metadata tables; the raw and GRDB peers read the `ZITEM`
    /// table of their copy of the same file. Without the "ours" peers compiled in, the raw peer
    /// builds it.
    ///
    /// Peers: raw step loop building structs; GRDB struct `fetchAll` and `Record.fetchAll` (the
    /// change-tracking peer); ours 2a (`fetch`, then `value(forKey:)` × 10 per object) and 2b
    /// (`includesPropertyValues = false`, then fire the faults); W2c is 2a through the generated
    /// `Item` class, whose accessors read by property index. The checksum is the sum of every
    /// attribute read. Goals: W2 ≤ 2× raw (issue), ≤ 2× GRDB `Record` fetch (spec).
    static var w2FetchItems: Workload {
        var peers = [
            RawSQLitePeers.fetchItems,
            GRDBPeers.fetchItemStructs,
            GRDBPeers.fetchItemRecords,
        ]
        #if canImport(CoreData)
        peers += [CoreDataPeers.fetchItems, CoreDataPeers.fetchItemFaults, CoreDataPeers.fetchGeneratedItems, CoreDataPeers.fetchItemsFromBinaryStore, CoreDataPeers.fetchItemsFromXMLStore]
        #endif
        return Workload(
            name: "W2",
            summary: "fetch Item objects and read all 10 attributes of each",
            defaultCount: 100_000,
            fixture: .items,
            peers: peers,
            expectedChecksum: { count in Checksum(values: [ItemTable.attributeSum(count: count)]) },
            results: [
                ResultLine(label: "W2", ours: "ours", raw: "raw", grdb: "grdb-record"),
                ResultLine(label: "W2b", ours: "ours-faults", raw: "raw", grdb: "grdb-record"),
                ResultLine(label: "W2c", ours: "ours-generated", raw: "raw", grdb: "grdb-record"),
                ResultLine(label: "W2d", ours: "ours-binary", raw: "raw", grdb: "grdb-record"),
                ResultLine(label: "W2d-xml", ours: "ours-xml", raw: "raw", grdb: "grdb-record"),
            ])
    }
}
