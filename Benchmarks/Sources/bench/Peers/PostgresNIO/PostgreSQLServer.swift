import Foundation
import PostgresNIO
import Synchronization

/// The PostgreSQL server of the `-postgresql` workloads: `COREDATA_POSTGRESQL_URL` names it, as it
/// does for the store's tests. Every run works in a schema of its own (``PostgreSQLSchema``), so
/// runs leave the server as they found it and can share it with other programs.
enum PostgreSQLServer {
    /// The environment variable naming the server.
    static let environmentVariable = "COREDATA_POSTGRESQL_URL"

    /// The server's URL, `postgres://user[:password]@host[:port]/database`, if the variable is set.
    static let url: URL? = ProcessInfo.processInfo.environment[environmentVariable].flatMap(URL.init(string:))

    /// Why the PostgreSQL workloads cannot run, or `nil` when a server is named.
    static var unavailability: String? {
        url == nil
            ? "set \(environmentVariable) to a PostgreSQL server (postgres://user@host:port/database, a socket directory percent-encoded as the host) to run them"
            : nil
    }

    /// The server's URL, or an error when none is named.
    static func requiredURL() throws -> URL {
        guard let url else { throw BenchmarkError.usage("\(environmentVariable) is not set") }
        return url
    }

    /// The connection settings of a server URL, read as libpq reads it: the user (default
    /// `postgres`), the password, the host or, percent-encoded, the directory of its Unix socket
    /// (`postgres://postgres@%2Ftmp%2Fpgdev/coredata`), the port (default 5432) and the database.
    static func configuration(of url: URL) throws -> PostgresConnection.Configuration {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let database = String(components?.path.drop { $0 == "/" } ?? "")
        guard let components, ["postgres", "postgresql"].contains(components.scheme?.lowercased()),
              let host = components.percentEncodedHost?.removingPercentEncoding, !host.isEmpty, !database.isEmpty
        else {
            throw BenchmarkError.usage("\(environmentVariable)=\(url.absoluteString) is not postgres://user@host:port/database")
        }
        let user = components.user ?? "postgres"
        let port = components.port ?? 5432
        if host.hasPrefix("/") {
            // libpq's convention: the socket in that directory is named after the port.
            return PostgresConnection.Configuration(
                unixSocketPath: "\(host)/.s.PGSQL.\(port)", username: user, password: components.password, database: database)
        }
        return PostgresConnection.Configuration(
            host: host, port: port, username: user, password: components.password, database: database, tls: .disable)
    }

    /// The server's version and the settings that decide what a commit costs, for report
    /// headers: `PostgreSQL 15.18, synchronous_commit=on, fsync=off`.
    static func settingsDescription() -> String {
        do {
            let connection = try PostgresNIOConnection(url: try requiredURL())
            defer { connection.close() }
            let row = try connection.query(PostgresQuery(unsafeSQL: """
                SELECT current_setting('server_version'), current_setting('synchronous_commit'), current_setting('fsync')
                """)).first
            guard let (version, synchronousCommit, fsync) = try row?.decode((String, String, String).self) else {
                return "PostgreSQL"
            }
            return "PostgreSQL \(version), synchronous_commit=\(synchronousCommit), fsync=\(fsync)"
        } catch {
            return "PostgreSQL (settings unreadable: \(error))"
        }
    }

    /// Schemas made so far by this process.
    private static let schemaCount = Atomic(0)

    /// A schema name no other run uses: `bench_<process id>_<n>`.
    static func newSchemaName() -> String {
        "bench_\(getpid())_\(schemaCount.add(1, ordering: .relaxed).newValue)"
    }
}
