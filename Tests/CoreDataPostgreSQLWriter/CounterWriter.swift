import CoreData
import CoreDataPostgreSQL
import Foundation

/// A server process of the multi-process tests: it opens the PostgreSQL store, then makes
/// `rounds` saves of one change each to the shared counter, under one merge policy.
///
/// Under `error`, the writer increments `total` and, on a conflict, reads the counter again and
/// tries again, as an app does; under the property-merging policies, it increments its own
/// property and lets the policy merge the others' changes. No update may be lost either way.
///
///     CoreDataPostgreSQLWriter <store URL> <schema> <error|mergeByPropertyObjectTrump|mergeByPropertyStoreTrump> <writer> <rounds>
///
/// With `migrate` for the policy, the writer opens the store with the counter model's version 2,
/// letting the store migrate itself, and saves a `Tally` named after itself. With `staged`, it
/// migrates through a staged migration manager instead, whose custom stage adds 100 to the total
/// before the migration and saves a `Tally` naming the writer after it. With `history` after
/// the rounds, it opens the store with persistent history, as a store that records it requires.
@main
enum CounterWriter {
    enum Policy: String {
        case error, mergeByPropertyObjectTrump, mergeByPropertyStoreTrump

        var mergePolicy: NSMergePolicy {
            switch self {
            case .error: .error
            case .mergeByPropertyObjectTrump: .mergeByPropertyObjectTrump
            case .mergeByPropertyStoreTrump: .mergeByPropertyStoreTrump
            }
        }
    }

    static func main() {
        let arguments = CommandLine.arguments
        guard (6...7).contains(arguments.count), let url = URL(string: arguments[1]), let writer = Int(arguments[4]), let rounds = Int(arguments[5]) else {
            fail("usage: CoreDataPostgreSQLWriter <store URL> <schema> <policy|migrate|staged> <writer> <rounds> [history]")
        }
        let recordsHistory = arguments.count == 7 && arguments[6] == "history"
        guard let policy = Policy(rawValue: arguments[3]) else {
            guard ["migrate", "staged"].contains(arguments[3]) else { fail("unknown policy \(arguments[3])") }
            return migrate(url: url, schema: arguments[2], writer: writer, staged: arguments[3] == "staged")
        }
        do {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try CounterModel.make())
            let options: [AnyHashable: Any] = [NSPostgreSQLSchemaOption: arguments[2], NSPersistentHistoryTrackingKey: recordsHistory]
            try coordinator.addPersistentStore(ofType: NSPostgreSQLStoreType, configurationName: nil, at: url, options: options)
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            context.mergePolicy = policy.mergePolicy
            try context.performAndWait {
                for _ in 0..<rounds {
                    try save(writer: writer, policy: policy, in: context)
                }
            }
        } catch {
            fail("writer \(writer): \(error)")
        }
    }

    private static func migrate(url: URL, schema: String, writer: Int, staged: Bool) {
        do {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try CounterModel.make(version: 2))
            var options: [AnyHashable: Any] = [
                NSPostgreSQLSchemaOption: schema, NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true,
            ]
            if staged {
                options[NSPersistentStoreStagedMigrationManagerOptionKey] = try stagedMigration(writer: writer)
            }
            try coordinator.addPersistentStore(ofType: NSPostgreSQLStoreType, configurationName: nil, at: url, options: options)
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            try context.performAndWait {
                NSEntityDescription.insertNewObject(forEntityName: "Tally", into: context).setValue("writer \(writer)", forKey: "label")
                try context.save()
            }
        } catch {
            fail("writer \(writer): \(error)")
        }
    }

    /// The one custom stage from version 1 to 2: the total grows by 100 before it, and a tally
    /// names the writer that ran it after it.
    private static func stagedMigration(writer: Int) throws -> NSStagedMigrationManager {
        let versions = try [1, 2].map { version in
            let model = try CounterModel.make(version: version)
            return NSManagedObjectModelReference(model: model, versionChecksum: model.versionChecksum)
        }
        let stage = NSCustomMigrationStage(migratingFrom: versions[0], to: versions[1])
        stage.willMigrateHandler = { manager, _ in
            try changeStore(of: manager) { context in
                let counter = try fetchCounter(in: context)
                counter.setValue((counter.value(forKey: "total") as? Int64 ?? 0) + 100, forKey: "total")
            }
        }
        stage.didMigrateHandler = { manager, _ in
            try changeStore(of: manager) { context in
                NSEntityDescription.insertNewObject(forEntityName: "Tally", into: context).setValue("stage by writer \(writer)", forKey: "label")
            }
        }
        return NSStagedMigrationManager([stage])
    }

    private static func changeStore(of manager: NSStagedMigrationManager, _ change: (NSManagedObjectContext) throws -> Void) throws {
        guard let context = manager.container?.newBackgroundContext() else { fail("a stage ran without its container") }
        try context.performAndWait {
            try change(context)
            try context.save()
        }
    }

    private static func save(writer: Int, policy: Policy, in context: NSManagedObjectContext) throws {
        let key = policy == .error ? "total" : CounterModel.propertyName(ofWriter: writer)
        while true {
            let counter = try fetchCounter(in: context)
            counter.setValue((counter.value(forKey: key) as? Int64 ?? 0) + 1, forKey: key)
            do {
                try context.save()
                return
            } catch let error as NSError where policy == .error && error.code == NSManagedObjectMergeError {
                // Forget the stale counter; the next fetch reads the store's.
                context.reset()
            }
        }
    }

    private static func fetchCounter(in context: NSManagedObjectContext) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Counter")
        guard let counter = try context.fetch(request).first else { fail("no counter in the store") }
        return counter
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(1)
    }
}
