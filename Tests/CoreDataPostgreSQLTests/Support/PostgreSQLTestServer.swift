@testable import CoreDataPostgreSQL
import Foundation
import Logging
import NIOPosix
import PostgresNIO

/// The PostgreSQL server the tests use: `COREDATA_POSTGRESQL_URL` names it (`.ci/postgresql`
/// starts a throwaway one and sets it). Each test's store lives in a schema of its own, so that
/// tests run side by side in one database.
enum PostgreSQLTestServer {
    static let environmentVariable = "COREDATA_POSTGRESQL_URL"

    static let url: URL? = ProcessInfo.processInfo.environment[environmentVariable].flatMap(URL.init(string:))

    static let isAvailable = url != nil

    /// The server's address on the network, where it speaks TLS with the certificate of
    /// `tlsCertificateAuthority` (`.ci/postgresql` sets both).
    static let tlsURL: URL? = ProcessInfo.processInfo.environment["COREDATA_POSTGRESQL_TLS_URL"].flatMap(URL.init(string:))
    static let tlsCertificateAuthority: String? = ProcessInfo.processInfo.environment["COREDATA_POSTGRESQL_TLS_CA"]

    static let skipMessage = "No PostgreSQL server: set \(environmentVariable) to postgres://user@host:port/database, or run the tests through .ci/run, which starts one"

    /// Options putting a store in a new schema of its own.
    static func newSchemaOptions() -> [AnyHashable: Any] {
        [NSPostgreSQLSchemaOption: "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()]
    }
}

/// A coordinator on a PostgreSQL store, and contexts on it.
struct PostgreSQLStack {
    let model: NSManagedObjectModel
    let coordinator: NSPersistentStoreCoordinator
    let store: NSPersistentStore
    let options: [AnyHashable: Any]
    var schema: String { options[NSPostgreSQLSchemaOption] as? String ?? "public" }

    /// A stack on the store in the schema `options` name (a new schema when nil).
    init(model: NSManagedObjectModel, options: [AnyHashable: Any]? = nil) throws {
        guard let url = PostgreSQLTestServer.url else { throw CocoaError(.featureUnsupported) }
        self.model = model
        self.options = options ?? PostgreSQLTestServer.newSchemaOptions()
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        store = try coordinator.addPersistentStore(ofType: NSPostgreSQLStoreType, configurationName: nil, at: url, options: self.options)
    }

    /// Another stack on the same store, as another server process would have.
    func another() throws -> PostgreSQLStack {
        try PostgreSQLStack(model: model, options: options)
    }

    func newContext() -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// Saves a book of each title (a `LibraryModel` store), through a new context.
    func saveBooks(titled titles: [String]) throws {
        let context = newContext()
        try context.performAndWait {
            for title in titles {
                NSEntityDescription.insertNewObject(forEntityName: "Book", into: context).setValue(title, forKey: "title")
            }
            try context.save()
        }
    }

    /// The titles of the store's books, in order, read through a new context.
    func bookTitles() throws -> [String?] {
        let context = newContext()
        return try context.performAndWait {
            try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book")).map { $0.value(forKey: "title") as? String }
                .sorted { ($0 ?? "") < ($1 ?? "") }
        }
    }
}

extension PostgreSQLTestServer {
    /// Runs SQL on a connection of its own, as an administrator would, in a store's schema.
    static func administer(_ sql: String, inSchema schema: String) throws {
        // The store's own reading of the URL, without a schema: the connection is not the store's,
        // and `terminateConnections(ofSchema:)` must not end it.
        let configuration = try PostgreSQLServerAddress(url: url, options: nil).configuration
        let logger = Logger(label: "CoreDataPostgreSQLTests.administrator")
        let connection = try PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: 0, logger: logger).wait()
        defer { try? connection.close().wait() }
        for statement in ["SET search_path TO \"\(schema)\"", sql] {
            _ = try connection.query(PostgresQuery(unsafeSQL: statement), logger: logger).wait()
        }
    }

    /// Ends the server processes of the store connections of a schema, as `pg_terminate_backend` does.
    static func terminateConnections(ofSchema schema: String) throws {
        try administer("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'CoreData:\(schema)'", inSchema: schema)
    }
}

extension PostgreSQLTestServer {
    /// Gives notifications already committed time to reach their listeners: a round trip
    /// through the server, then a pause for the listeners' queues.
    static func waitForDelivery() throws {
        try administer("SELECT 1", inSchema: "public")
        Thread.sleep(forTimeInterval: 0.3)
    }
}
