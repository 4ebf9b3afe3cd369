extension Workload {
    /// W1-swiftdata (issue 22): W1 through the SwiftData API (`insert` of `@Model` items, one
    /// `save()`), beside W1 through Core Data's API into a store that records persistent
    /// history, as SwiftData's stores do. Goal: the layer adds ≤ 15% (`vs_coredata` ≥ 0.87).
    static var w1sInsertItemsThroughSwiftData: Workload {
        var peers = [RawSQLitePeers.insertItems]
        #if canImport(SwiftData)
        peers += [CoreDataPeers.insertItemsWithHistory, SwiftDataPeers.insertItems]
        #endif
        return itemInsert(
            name: "W1-swiftdata",
            group: "W1",
            summary: "insert Item models through SwiftData, one save",
            peers: peers,
            results: [
                ResultLine(
                    label: "W1-swiftdata", ours: "ours-swiftdata", raw: "raw", grdb: nil,
                    extras: [.timesFaster(field: "vs_coredata", than: "ours-history")]),
            ])
    }

    /// W2-swiftdata (issue 22): W2 through the SwiftData API (`fetch(FetchDescriptor<Item>())`,
    /// then the ten properties of each model), beside W2c, Core Data's generated class whose
    /// accessors read by property index as `@Model`'s do. Goal: the layer adds ≤ 15%.
    static var w2sFetchItemsThroughSwiftData: Workload {
        var peers = [RawSQLitePeers.fetchItems]
        #if canImport(SwiftData)
        peers += [CoreDataPeers.fetchGeneratedItems, SwiftDataPeers.fetchItems]
        #endif
        return Workload(
            name: "W2-swiftdata",
            group: "W2",
            summary: "fetch Item models through SwiftData and read all 10 properties of each",
            defaultCount: 100_000,
            fixture: .items,
            peers: peers,
            expectedChecksum: { count in Checksum(values: [ItemTable.attributeSum(count: count)]) },
            results: [
                ResultLine(
                    label: "W2-swiftdata", ours: "ours-swiftdata", raw: "raw", grdb: nil,
                    extras: [.timesFaster(field: "vs_coredata", than: "ours-generated")]),
            ])
    }

    /// W3a-swiftdata (issue 22): W3a through the SwiftData API, a `#Predicate` on the indexed
    /// `score` that the store answers in SQL with the index, beside W3a through Core Data's API.
    /// Goal: the layer adds ≤ 15%.
    static var w3asIndexedFetchThroughSwiftData: Workload {
        var peers = [RawSQLitePeers.fetchByScore]
        #if canImport(SwiftData)
        peers += [CoreDataPeers.fetchByScore, SwiftDataPeers.fetchByScore]
        #endif
        return Workload(
            name: "W3a-swiftdata",
            group: "W3",
            summary: "fetch 1% of the rows by a #Predicate range on the indexed attribute",
            defaultCount: 1_000_000,
            fixture: .scoredItems,
            peers: peers,
            expectedChecksum: { count in Checksum(values: [ScoredItemTable.scoreRangeSum(count: count)]) },
            results: [
                ResultLine(
                    label: "W3a-swiftdata", ours: "ours-swiftdata", raw: "raw", grdb: nil,
                    extras: [.timesFaster(field: "vs_coredata", than: "ours")]),
            ])
    }
}
