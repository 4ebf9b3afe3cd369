@testable import CoreData
import CoreDataPostgreSQL
import Testing

/// A store written with one model version and reopened with another, on a scratch directory.
struct MigrationScenario {
    static var lightweight: [AnyHashable: Any] {
        [
            NSMigratePersistentStoresAutomaticallyOption: true,
            NSInferMappingModelAutomaticallyOption: true,
        ]
    }

    /// The relational store types a migration runs on here: SQLite, and PostgreSQL when there is
    /// a server (`COREDATA_POSTGRESQL_URL`).
    static let relationalStoreTypes = [NSSQLiteStoreType] + (CtxPostgreSQLServer.url == nil ? [] : [NSPostgreSQLStoreType])

    let directory: SQLiteScratchDirectory
    let storeType: String
    let url: URL
    /// The options every opening passes: a PostgreSQL store's schema of its own.
    let storeOptions: [AnyHashable: Any]

    init(_ label: String, storeType: String = NSSQLiteStoreType) throws {
        directory = try SQLiteScratchDirectory("migration-\(label)")
        self.storeType = storeType
        if storeType == NSPostgreSQLStoreType {
            url = try #require(CtxPostgreSQLServer.url)
            storeOptions = [NSPostgreSQLSchemaOption: "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()]
        } else {
            url = directory.file("Store.sqlite")
            storeOptions = [:]
        }
    }

    /// Creates the store with `model` and saves what `fill` inserts.
    func write(_ model: NSManagedObjectModel, _ fill: (NSManagedObjectContext) throws -> Void) throws {
        let stack = try SQLiteTestStack(model: model, url: url, options: storeOptions, storeType: storeType)
        defer { stack.close() }
        try stack.context.performAndWait {
            try fill(stack.context)
            try stack.context.save()
        }
    }

    /// Opens the store with `model`, migrating it when the options say so.
    func open(_ model: NSManagedObjectModel, options: [AnyHashable: Any] = MigrationScenario.lightweight) throws -> SQLiteTestStack {
        try SQLiteTestStack(model: model, url: url, options: options.merging(storeOptions) { _, store in store }, storeType: storeType)
    }

    /// Migrates the store in place from `source` to `destination` with the inferred mapping, as an
    /// automatic migration does once it has found the source model (code-built models are not
    /// among the versions a program ships, so the automatic path cannot find them).
    func migrate(from source: NSManagedObjectModel, to destination: NSManagedObjectModel, configuration: String? = nil) throws {
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination)
        try SQLiteInPlaceMigration(url: url, sourceModel: source, destinationModel: destination, mapping: mapping, configuration: configuration).run()
    }

    /// Opens the store with `model`, runs `body` on its context and closes it.
    func read<T>(_ model: NSManagedObjectModel, options: [AnyHashable: Any] = MigrationScenario.lightweight, _ body: (NSManagedObjectContext) throws -> T) throws -> T {
        let stack = try open(model, options: options)
        defer { stack.close() }
        return try stack.context.performAndWait { try body(stack.context) }
    }

    /// The error opening the store with `model` throws.
    func openingError(_ model: NSManagedObjectModel, options: [AnyHashable: Any] = MigrationScenario.lightweight) -> NSError? {
        do {
            try open(model, options: options).close()
            return nil
        } catch {
            return error as NSError
        }
    }

    func remove() {
        directory.remove()
    }
}

/// Short model builders for the migration suites.
enum MigrationModels {
    typealias Kit = ModelFixtureKit

    static func attribute(_ name: String, _ type: NSAttributeType, optional: Bool = true, defaultValue: Any? = nil, renamedFrom: String? = nil) -> NSAttributeDescription {
        let attribute = Kit.attribute(name, type, optional: optional)
        attribute.defaultValue = defaultValue
        attribute.renamingIdentifier = renamedFrom
        return attribute
    }

    /// A model with one entity `Book` holding the attributes.
    static func book(_ attributes: [NSAttributeDescription]) -> NSManagedObjectModel {
        Kit.model([Kit.entity("Book", attributes)])
    }
}
