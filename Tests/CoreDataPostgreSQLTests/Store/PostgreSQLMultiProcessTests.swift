import CoreDataPostgreSQL
@testable import CoreDataPostgreSQLWriter
import Foundation
import Synchronization
import Testing

/// Four server processes (`CoreDataPostgreSQLWriter`) change one object at once through one
/// PostgreSQL store, each under the same merge policy: optimistic locking on `Z_OPT` across
/// processes makes every conflict the policy's to resolve, and no update is lost.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipMessage)))
struct PostgreSQLMultiProcessTests {
    static let rounds = 25

    @Test(arguments: [CounterWriter.Policy.error, .mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump])
    func fourProcessesChangingOneObjectLoseNoUpdate(_ policy: CounterWriter.Policy) throws {
        let stack = try PostgreSQLStack(model: try CounterModel.make())
        let context = stack.newContext()
        try context.performAndWait {
            _ = NSEntityDescription.insertNewObject(forEntityName: "Counter", into: context)
            try context.save()
        }
        try Self.runWriters(CounterModel.writerCount, schema: stack.schema, mode: policy.rawValue, rounds: Self.rounds)
        let counter = try stack.another().newContext()
        let values = try counter.performAndWait {
            let object = try #require(try counter.fetch(NSFetchRequest<NSManagedObject>(entityName: "Counter")).first)
            return (["total"] + (0..<CounterModel.writerCount).map(CounterModel.propertyName(ofWriter:))).map { object.value(forKey: $0) as? Int64 }
        }
        if policy == .error {
            #expect(values == [Int64(Self.rounds * CounterModel.writerCount)] + Array(repeating: 0, count: CounterModel.writerCount))
        } else {
            #expect(values == [0] + Array(repeating: Int64(Self.rounds), count: CounterModel.writerCount))
        }
    }

    /// Two server processes that start at once with the model's next version race to migrate
    /// the store: one migrates, in a transaction, while the other waits, then finds it migrated.
    @Test func twoProcessesStartingWithANewModelMigrateTheStoreOnce() throws {
        let (stack, total, labels) = try Self.raceTwoWritersToVersion2("migrate")
        #expect(total == 41)
        #expect(labels == ["writer 0", "writer 1"])
        // The old model no longer opens the store.
        let error = #expect(throws: NSError.self) { try stack.another() }
        #expect(error?.code == NSPersistentStoreIncompatibleVersionHashError)
    }

    /// Two server processes that start at once with a staged migration race to run it: one runs
    /// the custom stage and its handlers, while the other waits, then finds the store migrated
    /// and runs none.
    @Test func twoProcessesStartingWithAStagedMigrationRunItsHandlersOnce() throws {
        let (_, total, labels) = try Self.raceTwoWritersToVersion2("staged")
        #expect(total == 141)
        #expect(labels.filter { $0.hasPrefix("stage by writer") }.count == 1)
        #expect(labels.filter { $0.hasPrefix("writer") } == ["writer 0", "writer 1"])
    }

    /// A store whose one counter holds 41, opened at once by two writer processes with version 2
    /// of the model (`migrate` or `staged`); then the counter's total and the tallies' labels,
    /// read with version 2, which saves a note on the counter.
    private static func raceTwoWritersToVersion2(_ mode: String) throws -> (stack: PostgreSQLStack, total: Int64?, labels: [String]) {
        let stack = try PostgreSQLStack(model: try CounterModel.make())
        let context = stack.newContext()
        try context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Counter", into: context).setValue(Int64(41), forKey: "total")
            try context.save()
        }
        try runWriters(2, schema: stack.schema, mode: mode, rounds: 0)
        let migrated = try PostgreSQLStack(model: try CounterModel.make(version: 2), options: stack.options).newContext()
        return try migrated.performAndWait {
            let counter = try #require(try migrated.fetch(NSFetchRequest<NSManagedObject>(entityName: "Counter")).first)
            counter.setValue("migrated", forKey: "note")
            try migrated.save()
            let labels = try migrated.fetch(NSFetchRequest<NSManagedObject>(entityName: "Tally")).compactMap { $0.value(forKey: "label") as? String }
            return (stack, counter.value(forKey: "total") as? Int64, labels.sorted())
        }
    }

    /// A fetched results controller in this process follows the saves of three writer processes:
    /// each remote-change notification brings the history after the last token read, which the
    /// context merges, as a server following the others does.
    @Test func aFetchedResultsControllerFollowsTheSavesOfThreeOtherProcesses() throws {
        var options = PostgreSQLTestServer.newSchemaOptions()
        options[NSPersistentHistoryTrackingKey] = true
        options[NSPersistentStoreRemoteChangeNotificationPostOptionKey] = true
        let stack = try PostgreSQLStack(model: try CounterModel.make(), options: options)
        let context = stack.newContext()
        try context.performAndWait {
            _ = NSEntityDescription.insertNewObject(forEntityName: "Counter", into: context)
            try context.save()
        }
        let request = NSFetchRequest<NSManagedObject>(entityName: "Counter")
        request.sortDescriptors = [NSSortDescriptor(key: "total", ascending: true)]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        let log = UpdateLog()
        controller.delegate = log
        try context.performAndWait { try controller.performFetch() }
        let token = Mutex(stack.coordinator.currentPersistentHistoryToken(fromStores: nil))
        let observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: stack.coordinator, queue: nil) { _ in
            context.perform {
                let after = token.withLock { $0 }
                guard let result = try? context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: after)) as? NSPersistentHistoryResult,
                      let transactions = result.result as? [NSPersistentHistoryTransaction] else { return }
                for transaction in transactions {
                    context.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                }
                if let last = transactions.last { token.withLock { $0 = last.token } }
            }
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        let rounds = 5
        try Self.runWriters(3, schema: stack.schema, mode: "error", rounds: rounds, history: true)
        let deadline = Date().addingTimeInterval(10)
        var total: Int64?
        repeat {
            Thread.sleep(forTimeInterval: 0.1)
            total = context.performAndWait { controller.fetchedObjects?.first?.value(forKey: "total") as? Int64 }
        } while total != Int64(3 * rounds) && Date() < deadline
        #expect(total == Int64(3 * rounds))
        #expect(log.updates.withLock { $0 } > 0)
    }

    /// Counts the updates a fetched results controller reports.
    final class UpdateLog: NSObject, NSFetchedResultsControllerDelegate, Sendable {
        let updates = Mutex(0)

        func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                        at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
            if type == .update { updates.withLock { $0 += 1 } }
        }
    }

    /// Starts the writer program, built beside the test bundle, in a child process.
    /// Starts `count` writer processes at once in `mode` (a merge policy, `migrate` or `staged`),
    /// each making `rounds` saves, and waits until each has ended, successfully.
    private static func runWriters(_ count: Int, schema: String, mode: String, rounds: Int, history: Bool = false) throws {
        let url = try #require(PostgreSQLTestServer.url)
        let directory = try #require(Bundle.main.executableURL?.deletingLastPathComponent())
        let writers = try (0..<count).map { writer in
            let process = Process()
            process.executableURL = directory.appendingPathComponent("CoreDataPostgreSQLWriter")
            process.arguments = ["\(url)", schema, mode, "\(writer)", "\(rounds)"] + (history ? ["history"] : [])
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            return (process, errors)
        }
        for (writer, errors) in writers {
            writer.waitUntilExit()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(writer.terminationStatus == 0, "\(message)")
        }
    }
}
