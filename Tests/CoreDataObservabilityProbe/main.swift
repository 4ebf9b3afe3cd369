import CoreData
import CoreDataPostgreSQL
import Logging
import Metrics
import MetricsTestKit

// A server process as Core Data's logs and metrics reach it: it bootstraps swift-log with a
// handler printing each record on standard output (`LOG <label> <level> <message>`) and
// swift-metrics with a recording backend, works with a SQLite store in the directory it is
// given (or a PostgreSQL store in a new schema of the server a URL names), then prints each
// metric (`METRIC <label> <value>`). Nothing else it prints is Core Data's own.
//
//     CoreDataObservabilityProbe <directory> | <postgres://…>

/// Prints every record, whatever its level, for the test to read.
struct PrintingLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        print("LOG \(label) \(event.level) \(event.message)")
    }
}

LoggingSystem.bootstrap { PrintingLogHandler(label: $0) }
let metrics = TestMetrics()
MetricsSystem.bootstrap(metrics)

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: CoreDataObservabilityProbe <directory> | <postgres://…>\n".utf8))
    exit(2)
}
let location = CommandLine.arguments[1]
let isServer = location.hasPrefix("postgres://")
let storeType = isServer ? NSPostgreSQLStoreType : NSSQLiteStoreType
let storeURL = isServer ? URL(string: location)! : URL(fileURLWithPath: location).appendingPathComponent("Probe.sqlite")
let schema: String? = isServer ? "probe_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() : nil

/// The options of the store: on a server, a schema of its own.
func storeOptions() -> [AnyHashable: Any]? {
    schema.map { [NSPostgreSQLSchemaOption: $0] }
}

let item = NSEntityDescription()
item.name = "Item"
let name = NSAttributeDescription()
name.name = "name"
name.attributeType = .stringAttributeType
item.properties = [name]
let model = NSManagedObjectModel()
model.entities = [item]

let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
do {
    try coordinator.addPersistentStore(ofType: storeType, configurationName: nil, at: storeURL, options: storeOptions())
} catch {
    FileHandle.standardError.write(Data("cannot open the store: \(error)\n".utf8))
    exit(1)
}

func newContext(on coordinator: NSPersistentStoreCoordinator = coordinator) -> NSManagedObjectContext {
    let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    context.persistentStoreCoordinator = coordinator
    return context
}

/// One save of three items.
func saveThreeItems() throws {
    let writer = newContext()
    try writer.performAndWait {
        for title in ["a", "b", "c"] {
            NSEntityDescription.insertNewObject(forEntityName: "Item", into: writer).setValue(title, forKey: "name")
        }
        try writer.save()
    }
}

/// A fetch of the items' rows, then faults that find them in the row cache.
func readItems(in reader: NSManagedObjectContext) throws {
    try reader.performAndWait {
        _ = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item"))
        let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
        request.includesPropertyValues = false
        let faults: [NSManagedObject] = try reader.fetch(request)
        for fault in faults {
            _ = fault.value(forKey: "name")
        }
    }
}

/// Two coordinators, as two processes would have, change one item: the second save meets a
/// conflict its policy resolves.
func changeOneItemTwice() throws -> NSManagedObjectID {
    let other = NSPersistentStoreCoordinator(managedObjectModel: model)
    try other.addPersistentStore(ofType: storeType, configurationName: nil, at: storeURL, options: storeOptions())
    let first = newContext()
    let second = newContext(on: other)
    second.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
    let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
    request.predicate = NSPredicate(format: "name == 'a'")
    let firstItem: NSManagedObject = try first.performAndWait { try first.fetch(request)[0] }
    let secondItem: NSManagedObject = try second.performAndWait { try second.fetch(request)[0] }
    try first.performAndWait {
        firstItem.setValue("first", forKey: "name")
        try first.save()
    }
    try second.performAndWait {
        secondItem.setValue("second", forKey: "name")
        try second.save()
    }
    return firstItem.objectID
}

do {
    try saveThreeItems()
    let reader = newContext()
    try readItems(in: reader)
    let changed = try changeOneItemTwice()
    let saved = Notification(name: .NSManagedObjectContextDidSave, object: nil, userInfo: [NSUpdatedObjectIDsKey: Set([changed])])
    reader.performAndWait { reader.mergeChanges(fromContextDidSave: saved) }
} catch {
    FileHandle.standardError.write(Data("the probe failed: \(error)\n".utf8))
    exit(1)
}

let counters: [TestCounter] = metrics.counters.sorted { $0.label < $1.label }
for counter in counters {
    print("METRIC \(counter.label) \(counter.totalValue)")
}
let saveDurations: [Int64] = (try? metrics.expectTimer("coredata_save_duration_seconds"))?.values ?? []
print("METRIC coredata_save_duration_seconds \(saveDurations.count) recorded")
