import CoreDataPostgreSQL
import Foundation

/// The PostgreSQL server the tests use: `COREDATA_POSTGRESQL_URL` names it (`.ci/postgresql`
/// starts a throwaway one and sets it). Each test's store lives in a schema of its own, so that
/// tests run side by side in one database.
enum PostgreSQLTestServer {
    static let environmentVariable = "COREDATA_POSTGRESQL_URL"

    static let url: URL? = ProcessInfo.processInfo.environment[environmentVariable].flatMap(URL.init(string:))

    static let isAvailable = url != nil

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
}
