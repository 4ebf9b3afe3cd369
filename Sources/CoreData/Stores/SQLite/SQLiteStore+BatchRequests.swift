// What the SQLite store adds to the relational stores' batch requests
// (`RelationalStore+BatchRequests`): its write transaction, the files it writes binary data to,
// and keys from `Z_PRIMARYKEY` under that transaction.
extension SQLiteStore {
    /// A prepared statement reused row after row costs less than a longer statement of many rows.
    static let rowsPerInsert = 1

    func batchTransaction<Result>(_ body: (SQLiteConnection, inout ExternalFileChanges) throws -> Result) throws -> Result {
        let (connection, _) = try writingDatabase()
        var files = ExternalFileChanges()
        do {
            return try connection.transaction { try body(connection, &files) }
        } catch {
            external.remove(files.written)
            throw error
        }
    }

    func batchPrimaryKeys(count: Int, of entity: NSEntityDescription) throws -> any PrimaryKeySource {
        let (connection, schema) = try writingDatabase()
        return PrimaryKeyAllocator(connection: connection, schema: schema)
    }
}
