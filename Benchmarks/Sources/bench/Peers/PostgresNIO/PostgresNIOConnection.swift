import Foundation
import PostgresNIO
import Synchronization

/// A PostgresNIO connection used synchronously, as a careful program without Swift concurrency
/// uses it, and as our PostgreSQL store does: each query goes out on PostgresNIO's event loop and
/// the calling thread (never an event loop's) waits for its whole result
/// (`EventLoopFuture.wait()`). One connection, one query at a time, like the raw SQLite peer's.
final class PostgresNIOConnection {
    /// The PostgresNIO connection.
    let connection: PostgresConnection

    /// PostgresNIO logs through swift-log; below its default level nothing is printed.
    private static let logger = Logger(label: "bench.postgresnio")

    /// Connection ids, for PostgresNIO's log metadata.
    private static let nextID = Atomic(0)

    /// Connects to the server at `url` (``PostgreSQLServer/configuration(of:)``) and, when
    /// `schema` is given, makes it the search path, so that unqualified table names are its own.
    init(url: URL, schema: String? = nil) throws {
        let id = Self.nextID.add(1, ordering: .relaxed).newValue
        connection = try PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: try PostgreSQLServer.configuration(of: url),
            id: id, logger: Self.logger
        ).wait()
        if let schema {
            try execute("SET search_path TO \(schema)")
        }
    }

    /// Sends `query` (its parameters bound, in one round trip of the extended protocol) and
    /// waits for all its rows.
    @discardableResult
    func query(_ query: PostgresQuery) throws -> PostgresQueryResult {
        try connection.query(query, logger: Self.logger).wait()
    }

    /// Sends `query` and hands each row to `onRow` on the event loop as it arrives, then waits
    /// for the end: PostgresNIO's callback interface, where decoding overlaps the server's sending.
    func query(_ query: PostgresQuery, onRow: @escaping @Sendable (PostgresRow) throws -> Void) throws {
        _ = try connection.query(query, logger: Self.logger, onRow).wait()
    }

    /// Runs SQL without parameters.
    func execute(_ sql: String) throws {
        try query(PostgresQuery(unsafeSQL: sql))
    }

    /// The first row of a query whose columns are all 64-bit integers.
    func integers(_ sql: String) throws -> [Int64] {
        guard let row = try query(PostgresQuery(unsafeSQL: sql)).first else { return [] }
        return try row.makeRandomAccess().map { try $0.decode(Int64.self) }
    }

    /// Closes the connection.
    func close() {
        try? connection.close().wait()
    }
}
