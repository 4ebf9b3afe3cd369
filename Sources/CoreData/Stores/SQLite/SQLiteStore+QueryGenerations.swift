// Query generations on SQLite: a pinned context reads through a connection holding a read
// transaction open, which in WAL mode keeps seeing the database as it was when it began.
extension SQLiteStore {
    func openQueryGeneration() throws -> StoreQueryGeneration? {
        guard let url, try journalMode() == "wal" else { return nil }
        let reader: SQLiteConnection
        do {
            reader = try SQLiteConnection(path: url.path, readOnly: true, create: false)
        } catch {
            throw CoreDataError.storeOpen(url, "SQLite could not open a connection for the query generation.", underlying: error)
        }
        try SQLiteFunctions.register(on: reader)
        reader.statementObserver = statementObserver
        // The snapshot is taken by the transaction's first read.
        try reader.execute("BEGIN")
        _ = try reader.scalar("SELECT COUNT(*) FROM Z_METADATA")
        return SQLiteReadSnapshot(connection: reader, generation: rowChanges.currentGeneration)
    }

    func read<T>(at generation: StoreQueryGeneration, _ body: () throws -> T) throws -> T {
        guard let snapshot = generation as? SQLiteReadSnapshot else { return try body() }
        let previous = pinnedRead
        pinnedRead = snapshot
        defer { pinnedRead = previous }
        return try body()
    }

    /// The store generation rows read now belong to: the pinned snapshot's while reading one.
    var readGeneration: Int {
        pinnedRead?.generation ?? rowChanges.currentGeneration
    }

    private func journalMode() throws -> String? {
        let (connection, _) = try requireWritingConnection()
        return try connection.statement("PRAGMA journal_mode").readFirstRow { $0.string(at: 0)?.lowercased() } ?? nil
    }
}
