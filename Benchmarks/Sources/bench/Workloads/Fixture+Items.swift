extension Fixture {
    /// The fixture W2 and W10 start from: `count` `Item` objects (W1's ten Int64 attributes,
    /// object `i` holding `(i, …, i)`), built once per process and shared. Our Core Data inserts
    /// and saves them with W1's insert and one save, so that the store has our metadata tables; the
    /// raw and GRDB peers use the `ZITEM` table of their copy of it. Without the "ours" peers
    /// compiled in, the raw peer builds the table.
    static var items: Fixture {
        #if canImport(CoreData)
        Fixture.shared(key: "items", describedAs: "items inserted and saved by ours") { input in
            try CoreDataPeers.createItemStore(at: input.storeURL, count: input.count, settings: input.settings)
            try ItemTable.checkpoint(at: input.storeURL)
        }
        #else
        Fixture.shared(key: "items", describedAs: "ZITEM table built by raw SQLite (ours not compiled in)") { input in
            try RawSQLitePeers.createItemStore(at: input.storeURL, count: input.count, settings: input.settings)
            try ItemTable.checkpoint(at: input.storeURL)
        }
        #endif
    }
}
