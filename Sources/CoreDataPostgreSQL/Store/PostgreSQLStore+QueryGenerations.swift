import CoreData

// Query generations on PostgreSQL: a pinned context reads through a connection of its own
// holding a read-only REPEATABLE READ transaction open, which keeps seeing the database as it
// was at the transaction's first statement, whatever any server writes meanwhile.
extension PostgreSQLStore {
    func openQueryGeneration() throws -> StoreQueryGeneration? {
        let (connection, _) = try writingDatabase()
        let reader = try PostgreSQLConnection(address: connection.address)
        do {
            try reader.beginReadOnly()
            // The snapshot is taken by the transaction's first statement.
            _ = try reader.scalar("SELECT COUNT(*) FROM Z_METADATA")
        } catch {
            reader.close()
            throw error
        }
        return SQLReadSnapshot(connection: reader, generation: rowChanges.currentGeneration) { reader in
            reader.rollback()
            reader.close()
        }
    }
}
