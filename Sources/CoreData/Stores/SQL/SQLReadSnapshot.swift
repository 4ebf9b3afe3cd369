/// A read transaction held open on a connection of its own, which keeps seeing the database as
/// it was when the transaction took its snapshot, whatever is written meanwhile: the frozen data
/// of a query generation.
// The connection is used only under the coordinator's lock, by the store that made it, and is
// closed when the last token or context referring to the snapshot lets it go.
package final class SQLReadSnapshot<Database: SQLDatabase>: StoreQueryGeneration, @unchecked Sendable {
    package let connection: Database
    package let generation: Int
    /// Ends the transaction and closes the connection.
    private let end: (Database) -> Void

    package init(connection: Database, generation: Int, end: @escaping (Database) -> Void) {
        self.connection = connection
        self.generation = generation
        self.end = end
    }

    deinit {
        end(connection)
    }
}
