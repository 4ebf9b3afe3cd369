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
        return SQLReadSnapshot(connection: reader, generation: rowChanges.currentGeneration) { reader in
            try? reader.execute("ROLLBACK")
            reader.close()
        }
    }

    private func journalMode() throws -> String? {
        let (connection, _) = try writingDatabase()
        return try connection.statement("PRAGMA journal_mode").readFirstRow { $0.string(at: 0)?.lowercased() } ?? nil
    }
}
