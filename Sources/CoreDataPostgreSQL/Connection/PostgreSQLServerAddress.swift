import CoreData
import NIOSSL
import PostgresNIO

/// Where a PostgreSQL store's database is, from its URL and options:
/// `postgres://user[:password]@host[:port]/database`, or a socket's directory as the host,
/// percent-encoded (`postgres://user@%2Fvar%2Frun%2Fpostgresql/database`), as libpq reads them;
/// the password, TLS and the schema by options.
struct PostgreSQLServerAddress: Sendable {
    let url: URL
    let configuration: PostgresConnection.Configuration
    /// The schema (name space) the store's tables live in; nil for the database's default.
    let schema: String?

    /// The address of a store URL and its options.
    ///
    /// - Throws: `NSPersistentStoreOpenError` (134080) for a URL that is not a PostgreSQL URL,
    ///   a TLS mode other than `disable`, `prefer` and `require`, or a certificate authority file
    ///   that cannot be read.
    init(url: URL?, options: [AnyHashable: Any]?) throws {
        guard let url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql",
              let host = components.percentEncodedHost?.removingPercentEncoding, !host.isEmpty,
              case let database = String(components.path.drop(while: { $0 == "/" })), !database.isEmpty
        else {
            throw CoreDataError.storeOpen(url, "a PostgreSQL store needs a URL of the form postgres://user@host:port/database.")
        }
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
        configuration.tls = try Self.tls(options, url: url)
        let schema = options?[NSPostgreSQLSchemaOption] as? String
        configuration.options.connectTimeout = .seconds(10)
        // Names the store's connections in `pg_stat_activity`, for whoever runs the server; every
        // connection starts in the store's schema.
        configuration.options.additionalStartupParameters = [("application_name", "CoreData" + (schema.map { ":" + $0 } ?? ""))]
        if let schema {
            guard let quoted = PostgreSQLIdentifier.quoted(schema) else {
                throw CoreDataError.storeOpen(url, "'\(schema)' is not a PostgreSQL schema name this store accepts (ASCII letters, digits and underscores).")
            }
            configuration.options.additionalStartupParameters.append(("search_path", quoted))
        }
        self.url = url
        self.configuration = configuration
        self.schema = schema
    }

    /// Whether another address is of the same server's same database (whichever schema).
    func isSameDatabase(as other: PostgreSQLServerAddress) -> Bool {
        func database(_ url: URL) -> [String?] {
            let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            return [components?.percentEncodedHost?.removingPercentEncoding, components?.port.map(String.init), components?.path]
        }
        return database(url) == database(other.url)
    }

    /// The TLS of `NSPostgreSQLTLSOption`, verifying the server's certificate against the
    /// authority of `NSPostgreSQLTLSCertificateAuthorityOption`, or the system's.
    private static func tls(_ options: [AnyHashable: Any]?, url: URL) throws -> PostgresConnection.Configuration.TLS {
        let mode = options?[NSPostgreSQLTLSOption] as? String ?? "disable"
        guard mode != "disable" else { return .disable }
        guard mode == "prefer" || mode == "require" else {
            throw CoreDataError.storeOpen(url, "'\(mode)' is not a TLS mode of the PostgreSQL store (disable, prefer or require).")
        }
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let authority = options?[NSPostgreSQLTLSCertificateAuthorityOption] as? String {
            configuration.trustRoots = .file(authority)
        }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            throw CoreDataError.storeOpen(url, "its TLS settings cannot be used (\(error)).", underlying: error)
        }
        return mode == "require" ? .require(context) : .prefer(context)
    }
}
