import CoreData
import PostgresNIO

/// Where a PostgreSQL store's database is, from its URL and options:
/// `postgres://user[:password]@host[:port]/database`, or a socket's directory as the host,
/// percent-encoded (`postgres://user@%2Fvar%2Frun%2Fpostgresql/database`), as libpq reads them.
struct PostgreSQLServerAddress: Sendable {
    let url: URL
    let configuration: PostgresConnection.Configuration
    /// The schema (name space) the store's tables live in; nil for the database's default.
    let schema: String?

    /// The address of a store URL, or nil when the URL is not a PostgreSQL URL.
    init?(url: URL, options: [AnyHashable: Any]?) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql",
              let host = components.percentEncodedHost?.removingPercentEncoding, !host.isEmpty
        else { return nil }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty else { return nil }
        let username = components.user ?? "postgres"
        let password = options?[NSPostgreSQLPasswordOption] as? String ?? components.password
        var configuration: PostgresConnection.Configuration
        if host.hasPrefix("/") {
            // libpq's convention: the socket file is named after the port in that directory.
            let socket = "\(host)/.s.PGSQL.\(components.port ?? 5432)"
            configuration = PostgresConnection.Configuration(unixSocketPath: socket, username: username, password: password, database: database)
        } else {
            configuration = PostgresConnection.Configuration(host: host, port: components.port ?? 5432, username: username, password: password, database: database, tls: .disable)
        }
        let schema = options?[NSPostgreSQLSchemaOption] as? String
        configuration.options.connectTimeout = .seconds(10)
        // Names the store's connections in `pg_stat_activity`, for whoever runs the server.
        configuration.options.additionalStartupParameters = [("application_name", "CoreData" + (schema.map { ":" + $0 } ?? ""))]
        self.url = url
        self.configuration = configuration
        self.schema = schema
    }
}
