@testable import CoreData
import CoreDataPostgreSQL
import Testing

// Shared helpers of the Objects/, Context/ and Container/ suites. Every name starts with `Ctx` so
// that it cannot collide with the fixtures of other test folders.

/// A scratch directory under the system's temporary directory, deleted when the last stack using it goes away.
final class CtxTemporaryDirectory: @unchecked Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("CoreDataContextTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// A coordinator with one store (SQLite in a scratch directory, in-memory, or PostgreSQL in a
/// schema of its own on the server `COREDATA_POSTGRESQL_URL` names) and a private-queue context.
///
/// `reopened()` opens the same store with a fresh coordinator, which is how the tests check
/// what was really written.
final class CtxStack: @unchecked Sendable {
    let directory: CtxTemporaryDirectory
    let model: NSManagedObjectModel
    let storeType: String
    let storeURL: URL?
    let options: [AnyHashable: Any]?
    let coordinator: NSPersistentStoreCoordinator
    let store: NSPersistentStore
    let context: NSManagedObjectContext

    init(model: NSManagedObjectModel, storeType: String = NSSQLiteStoreType, directory: CtxTemporaryDirectory? = nil, options: [AnyHashable: Any]? = nil) throws {
        self.directory = try directory ?? CtxTemporaryDirectory()
        self.model = model
        self.storeType = storeType
        switch storeType {
        case NSInMemoryStoreType:
            storeURL = nil
            self.options = options
        case NSPostgreSQLStoreType:
            storeURL = try #require(CtxPostgreSQLServer.url, "\(CtxPostgreSQLServer.environmentVariable) names no server")
            self.options = options ?? [NSPostgreSQLSchemaOption: "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()]
        default:
            storeURL = self.directory.url.appendingPathComponent("Test.sqlite")
            self.options = options
        }
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        store = try coordinator.addPersistentStore(ofType: storeType, configurationName: nil, at: storeURL, options: self.options)
        context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
    }

    /// A new coordinator and context on the same store file.
    func reopened() throws -> CtxStack {
        precondition(storeType != NSInMemoryStoreType, "An in-memory store cannot be reopened.")
        return try CtxStack(model: model, storeType: storeType, directory: directory, options: options)
    }

    /// How many objects of an entity the store file holds, read through a new coordinator.
    func storedCountAfterReopening(_ entityName: String) throws -> Int {
        let reopened = try reopened()
        return try reopened.context.performAndWait { try ctxStoredCount(entityName, in: reopened.context) }
    }

    /// Another private-queue context on the same coordinator.
    func newContext() -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// The store's UUID, as written in its metadata.
    var storeUUID: String? {
        coordinator.metadata(for: store)[NSStoreUUIDKey] as? String
    }
}

/// The PostgreSQL server of the tests that run against the PostgreSQL store too: the one
/// `COREDATA_POSTGRESQL_URL` names (`.ci/run` starts one); without it those legs are skipped.
enum CtxPostgreSQLServer {
    static let environmentVariable = "COREDATA_POSTGRESQL_URL"
    static let url = ProcessInfo.processInfo.environment[environmentVariable].flatMap(URL.init(string:))
}

/// The SQL statements `body` runs on the stack's SQLite store.
func ctxStatements(in stack: CtxStack, _ body: () throws -> Void) throws -> [String] {
    let store = try #require(stack.store as? SQLiteStore)
    let log = CtxLog<String>()
    store.statementObserver = { log.append($0) }
    defer { store.statementObserver = nil }
    try body()
    return log.elements
}

/// Inserts an object of an entity and sets its values.
@discardableResult
func ctxInsert(_ entityName: String, into context: NSManagedObjectContext, _ values: [String: Any] = [:]) -> NSManagedObject {
    let object = NSEntityDescription.insertNewObject(forEntityName: entityName, into: context)
    for (key, value) in values {
        object.setValue(value, forKey: key)
    }
    return object
}

/// Fetches every object of an entity (optionally matching a predicate format, sorted by a key).
func ctxFetch(_ entityName: String, in context: NSManagedObjectContext, _ format: String? = nil, _ arguments: [Any] = [], sortedBy key: String? = nil) throws -> [NSManagedObject] {
    let request = NSFetchRequest<NSManagedObject>(entityName: entityName)
    if let format {
        request.predicate = NSPredicate(format: format, argumentArray: arguments)
    }
    if let key {
        request.sortDescriptors = [NSSortDescriptor(key: key, ascending: true)]
    }
    return try context.fetch(request)
}

/// The number of objects of an entity the store holds (pending changes ignored).
func ctxStoredCount(_ entityName: String, in context: NSManagedObjectContext) throws -> Int {
    let request = NSFetchRequest<NSManagedObject>(entityName: entityName)
    request.includesPendingChanges = false
    return try context.count(for: request)
}

/// The error a throwing body throws, as an NSError; nil when it does not throw.
func ctxError(_ body: () throws -> Void) -> NSError? {
    do {
        try body()
        return nil
    } catch {
        return error as NSError
    }
}

/// The related objects of a to-many relationship (ordered or not), as an array.
func ctxObjects(_ value: Any?) -> [NSManagedObject] {
    switch value {
    case let set as NSOrderedSet: return set.array.compactMap { $0 as? NSManagedObject }
    case let set as NSSet: return set.allObjects.compactMap { $0 as? NSManagedObject }
    default: return []
    }
}

/// Whether a to-many value holds `object` (by identity).
func ctxContains(_ value: Any?, _ object: NSManagedObject) -> Bool {
    ctxObjects(value).contains { $0 === object }
}

/// A thread-safe list of what a test observed, for notifications and hooks called on other queues.
final class CtxLog<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Element] = []

    func append(_ element: Element) {
        lock.lock()
        storage.append(element)
        lock.unlock()
    }

    var elements: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }

    func removeAll() {
        lock.lock()
        storage.removeAll()
        lock.unlock()
    }
}

/// Records the notifications of one name posted by one object, from the moment it is created
/// until `stop()` (or deinit).
final class CtxNotificationRecorder: @unchecked Sendable {
    private let log = CtxLog<Notification>()
    private var token: NSObjectProtocol?

    init(_ name: Notification.Name, object: AnyObject?) {
        let log = self.log
        token = NotificationCenter.default.addObserver(forName: name, object: object, queue: nil) { notification in
            log.append(notification)
        }
    }

    var notifications: [Notification] {
        log.elements
    }

    func removeAll() {
        log.removeAll()
    }

    func stop() {
        if let token {
            NotificationCenter.default.removeObserver(token)
        }
        token = nil
    }

    deinit {
        stop()
    }
}

/// The managed objects under a userInfo key of a context notification.
func ctxObjects(in notification: Notification, key: String) -> [NSManagedObject] {
    switch notification.userInfo?[key] {
    case let set as Set<NSManagedObject>: return Array(set)
    case let set as NSSet: return set.allObjects.compactMap { $0 as? NSManagedObject }
    case let array as [NSManagedObject]: return array
    default: return []
    }
}

/// The object IDs under a userInfo key of a context notification.
func ctxObjectIDs(in notification: Notification, key: String) -> [NSManagedObjectID] {
    switch notification.userInfo?[key] {
    case let set as Set<NSManagedObjectID>: return Array(set)
    case let set as NSSet: return set.allObjects.compactMap { $0 as? NSManagedObjectID }
    case let array as [NSManagedObjectID]: return array
    default: return []
    }
}
