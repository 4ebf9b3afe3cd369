extension Workload {
    /// W1 (spec §7.2): insert 100k objects of `Item` (10 Int64 attributes, object `i` holding
    /// `(i, …, i)`) and save once, into a new store.
    ///
    /// Peers: raw prepared INSERT in one transaction; GRDB struct and `Record`-class `insert` in one
    /// transaction; ours: `insertNewObject` + 10 `setValue` each, one `save()`. The checksum is the
    /// object count the peer reports plus the row count and attribute sum read back from its file.
    /// Goals: ours ≤ 1.5× GRDB `Record` class (spec), ≤ 3× raw (issue).
    static var w1InsertItems: Workload {
        var peers = [
            RawSQLitePeers.insertItems,
            GRDBPeers.insertItemStructs,
            GRDBPeers.insertItemRecords,
        ]
        #if canImport(CoreData)
        peers.append(CoreDataPeers.insertItems)
        #endif
        return itemInsert(
            name: "W1",
            summary: "insert Item objects (10 × Int64) into a new store, one save/transaction",
            peers: peers,
            results: [ResultLine(label: "W1", ours: "ours", raw: "raw", grdb: "grdb-record")],
            supportsRollback: true)
    }

    /// A workload of W1's shape: 100k `Item` objects inserted into a new store, checked by the
    /// object count the peer reports plus the row count and attribute sum read back from its file.
    static func itemInsert(
        name: String,
        group: String? = nil,
        summary: String,
        peers: [Peer],
        results: [ResultLine],
        measuresMemory: Bool = false,
        supportsRollback: Bool = false
    ) -> Workload {
        Workload(
            name: name,
            group: group,
            summary: summary,
            defaultCount: 100_000,
            fixture: .none,
            peers: peers,
            expectedChecksum: { count in Checksum(values: [Int64(count)] + ItemTable.expectedStoreChecksum(count: count)) },
            storeChecksum: ItemTable.storeChecksum(at:),
            results: results,
            measuresMemory: measuresMemory,
            supportsRollback: supportsRollback)
    }

    /// W1d: W1 into a new binary store (`NSBinaryStoreType`), and into a new XML store, beside raw
    /// SQLite. Apple calls the binary store fast, with the whole graph in memory.
    static var w1dInsertItemsIntoBinaryStore: Workload {
        var peers = [RawSQLitePeers.insertItems]
        #if canImport(CoreData)
        peers += [CoreDataPeers.insertItemsIntoBinaryStore, CoreDataPeers.insertItemsIntoXMLStore]
        #endif
        return Workload(
            name: "W1d",
            group: "W1",
            summary: "insert Item objects into a new binary store, one save",
            defaultCount: 100_000,
            fixture: .none,
            peers: peers,
            expectedChecksum: { count in Checksum(values: [Int64(count)]) },
            results: [
                ResultLine(label: "W1d", ours: "ours-binary", raw: "raw", grdb: nil),
                ResultLine(label: "W1d-xml", ours: "ours-xml", raw: "raw", grdb: nil),
            ])
    }

    /// W1-history (issue 21): W1 into a new store opened with `NSPersistentHistoryTrackingKey`,
    /// so that the save also records a transaction and a change per object, beside W1 without
    /// history (`ours-save`). Goal: ≤ 1.3× W1 without history (`vs_without_history` ≥ 0.77).
    static var w1hInsertItemsWithHistory: Workload {
        var peers = [RawSQLitePeers.insertItems]
        #if canImport(CoreData)
        peers += [CoreDataPeers.insertItemsWithHistory, CoreDataPeers.insertItemsBySave]
        #endif
        return itemInsert(
            name: "W1-history",
            group: "W1",
            summary: "insert Item objects into a new store that records persistent history, one save",
            peers: peers,
            results: [
                ResultLine(
                    label: "W1-history", ours: "ours-history", raw: "raw", grdb: nil,
                    extras: [.timesFaster(field: "vs_without_history", than: "ours-save")]),
            ],
            supportsRollback: true)
    }
}
