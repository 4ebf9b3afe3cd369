extension Fixture {
    /// The fixture W3, W4 and W9 read: `count` `ScoredItem` rows (``ScoredItemTable``), built once
    /// per process and shared. Our Core Data inserts and saves them in batches of 100k, so that the
    /// store has our schema, index and metadata tables; the raw and GRDB peers read `ZSCOREDITEM`
    /// from their copy of it. Without the "ours" peers compiled in, the raw peer builds the same
    /// table and index.
    static var scoredItems: Fixture {
        #if canImport(CoreData)
        Fixture.shared(key: "scored-items", describedAs: "ScoredItem rows inserted and saved by ours (100k per save)") { input in
            try ScoredItemModel.createStore(at: input.storeURL, count: input.count, settings: input.settings)
            try ItemTable.checkpoint(at: input.storeURL)
        }
        #else
        Fixture.shared(key: "scored-items", describedAs: "ZSCOREDITEM built by raw SQLite (ours not compiled in)") { input in
            try RawSQLitePeers.createScoredItemStore(at: input.storeURL, count: input.count, settings: input.settings)
            try ItemTable.checkpoint(at: input.storeURL)
        }
        #endif
    }
}
