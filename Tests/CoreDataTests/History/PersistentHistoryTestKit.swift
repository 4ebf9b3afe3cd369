@testable import CoreData
import CoreDataPostgreSQL
import Foundation

/// A scratch SQLite store (or a PostgreSQL store in a schema of its own) on `BatchModel` opened
/// with persistent history, whose items' names are kept in the tombstones of deleted items.
struct HistoryTestStore {
    let directory: SQLiteScratchDirectory
    let url: URL
    let storeType: String
    let model: NSManagedObjectModel
    let stack: SQLiteTestStack
    /// The options every coordinator passes: history, and a PostgreSQL store's schema.
    let storeOptions: [AnyHashable: Any]

    static var options: [AnyHashable: Any] { [NSPersistentHistoryTrackingKey: true] }

    init(_ label: String, storeType: String = NSSQLiteStoreType) throws {
        directory = try SQLiteScratchDirectory(label)
        self.storeType = storeType
        if storeType == NSPostgreSQLStoreType, let server = CtxPostgreSQLServer.url {
            url = server
            storeOptions = Self.options.merging([NSPostgreSQLSchemaOption: "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()]) { $1 }
        } else {
            url = directory.file("History.sqlite")
            storeOptions = Self.options
        }
        model = Self.model()
        stack = try SQLiteTestStack(model: model, url: url, options: storeOptions, storeType: storeType)
    }

    /// `BatchModel` with the items' names preserved in history on deletion.
    static func model() -> NSManagedObjectModel {
        let model = BatchModel.make()
        (model.entitiesByName["Item"]?.attributesByName["name"])?.preservesValueInHistoryOnDeletion = true
        return model
    }

    var context: NSManagedObjectContext { stack.context }

    /// Another coordinator on the same file, with a context of its own.
    func secondStack(withHistory: Bool = true) throws -> SQLiteTestStack {
        let options = withHistory ? storeOptions : storeOptions.filter { $0.key as? String != NSPersistentHistoryTrackingKey }
        return try SQLiteTestStack(model: model, url: url, options: options, storeType: storeType)
    }

    func close() {
        stack.close()
        directory.remove()
    }

    /// Inserts items with the given names in one save.
    @discardableResult
    func insertItems(_ names: [String], in context: NSManagedObjectContext? = nil) throws -> [NSManagedObjectID] {
        let context = context ?? self.context
        return try context.performAndWait {
            let items = names.map { name in
                let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
                item.setValue(name, forKey: "name")
                return item
            }
            try context.save()
            return items.map(\.objectID)
        }
    }

    /// Runs a request through the context.
    func execute(_ request: NSPersistentStoreRequest) throws -> NSPersistentStoreResult {
        try context.performAndWait { try context.execute(request) }
    }

    /// Runs a history request through the context and returns its result's value.
    func history(_ request: NSPersistentHistoryChangeRequest, in context: NSManagedObjectContext? = nil) throws -> Any? {
        let context = context ?? self.context
        return try context.performAndWait { (try context.execute(request) as? NSPersistentHistoryResult)?.result }
    }

    /// Every transaction after a token, with its changes.
    func transactions(after token: NSPersistentHistoryToken? = nil) throws -> [NSPersistentHistoryTransaction] {
        try history(.fetchHistory(after: token)) as? [NSPersistentHistoryTransaction] ?? []
    }
}
