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
        return PostgreSQLReadSnapshot(connection: reader, generation: rowChanges.currentGeneration)
    }

    func read<T>(at generation: StoreQueryGeneration, _ body: () throws -> T) throws -> T {
        guard let snapshot = generation as? PostgreSQLReadSnapshot else { return try body() }
        let previous = pinnedRead
        pinnedRead = snapshot
        defer { pinnedRead = previous }
        return try body()
    }

    /// The store generation rows read now belong to: the pinned snapshot's while reading one.
    var readGeneration: Int {
        pinnedRead?.generation ?? rowChanges.currentGeneration
    }
}

/// A read-only REPEATABLE READ transaction held open on a connection of its own: the frozen data
/// of a query generation.
// The connection is used only under the coordinator's lock, by the store that made it, and is
// closed when the last token or context referring to the snapshot lets it go.
final class PostgreSQLReadSnapshot: StoreQueryGeneration, @unchecked Sendable {
    let connection: PostgreSQLConnection
    let generation: Int

    init(connection: PostgreSQLConnection, generation: Int) {
        self.connection = connection
        self.generation = generation
    }

    deinit {
        connection.rollback()
        connection.close()
    }
}
