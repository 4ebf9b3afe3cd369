// Query generations in a relational store: each is a read transaction on a connection of its
// own (`SQLReadSnapshot`), which a pinned context's reads go through.
extension RelationalStore {
    /// The connection reads go through (the pinned snapshot's while a pinned context reads), and
    /// the schema.
    package func readingDatabase() throws -> (Database, SQLSchema) {
        let (connection, schema) = try writingDatabase()
        return (pinnedRead?.connection ?? connection, schema)
    }

    package func read<T>(at generation: StoreQueryGeneration, _ body: () throws -> T) throws -> T {
        guard let snapshot = generation as? SQLReadSnapshot<Database> else { return try body() }
        let previous = pinnedRead
        pinnedRead = snapshot
        defer { pinnedRead = previous }
        return try body()
    }

    /// The store generation rows read now belong to (see `RowChangeLog`): the pinned snapshot's
    /// while reading one.
    package var readGeneration: Int {
        pinnedRead?.generation ?? rowChanges.currentGeneration
    }
}
