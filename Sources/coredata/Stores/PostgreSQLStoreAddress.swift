import ArgumentParser
import CoreData
#if PostgreSQL
import CoreDataPostgreSQL
#endif

/// A PostgreSQL store named on the command line, `postgres://user@host:port/database`, with the
/// schema the store is in as the URL's `schema` query item (`…/database?schema=inventory`);
/// without one, the database's default schema, or the command's own.
struct PostgreSQLStoreAddress {
    /// The server's URL, without the query, as the store takes it.
    let url: URL
    let schema: String?

    /// The address `argument` names, or nil when it is not a `postgres://` or `postgresql://` URL.
    init?(_ argument: String, defaultSchema: String? = nil) {
        guard var components = URLComponents(string: argument),
              let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql"
        else { return nil }
        schema = components.queryItems?.first { $0.name == "schema" }?.value ?? defaultSchema
        components.query = nil
        guard let url = components.url else { return nil }
        self.url = url
    }

    /// The store's type.
    ///
    /// - Throws: A ``CommandFailure`` when this tool was built without the package's
    ///   `PostgreSQL` trait, saying how to build it with.
    func storeType() throws -> String {
        #if PostgreSQL
        NSPostgreSQLStoreType
        #else
        throw CommandFailure.report("This coredata was built without PostgreSQL: build it with `swift build --traits PostgreSQL`, or run it with `swift run --traits PostgreSQL coredata …`.")
        #endif
    }

    /// The store options that name the schema.
    var options: [String: NSObject] {
        #if PostgreSQL
        schema.map { [NSPostgreSQLSchemaOption: $0 as NSString] } ?? [:]
        #else
        [:]
        #endif
    }

    /// The address as the tool prints it: without a password.
    var description: String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.password = nil
        let server = components?.string ?? url.absoluteString
        return schema.map { "\(server), schema \($0)" } ?? server
    }
}
