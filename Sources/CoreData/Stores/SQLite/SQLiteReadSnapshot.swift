/// A read transaction held open on a connection of its own. In WAL mode, every read through it
/// sees the database as it was when the transaction began, whatever is written meanwhile: the
/// frozen data of a query generation.
// The connection is used only under the coordinator's lock, by the store that made it, and is
// closed when the last token or context referring to the snapshot lets it go.
final class SQLiteReadSnapshot: StoreQueryGeneration, @unchecked Sendable {
    let connection: SQLiteConnection
    let generation: Int

    init(connection: SQLiteConnection, generation: Int) {
        self.connection = connection
        self.generation = generation
    }

    deinit {
        try? connection.execute("ROLLBACK")
        connection.close()
    }
}
