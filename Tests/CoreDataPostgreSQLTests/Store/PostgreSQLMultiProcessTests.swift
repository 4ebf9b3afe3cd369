import CoreDataPostgreSQL
@testable import CoreDataPostgreSQLWriter
import Foundation
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
        let writers = try (0..<CounterModel.writerCount).map { writer in
            try Self.launch(["\(try #require(PostgreSQLTestServer.url))", stack.schema, policy.rawValue, "\(writer)", "\(Self.rounds)"])
        }
        for (writer, errors) in writers {
            writer.waitUntilExit()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(writer.terminationStatus == 0, "\(message)")
        }
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
        let stack = try PostgreSQLStack(model: try CounterModel.make())
        let context = stack.newContext()
        try context.performAndWait {
            let counter = NSEntityDescription.insertNewObject(forEntityName: "Counter", into: context)
            counter.setValue(Int64(41), forKey: "total")
            try context.save()
        }
        let writers = try (0..<2).map { writer in
            try Self.launch(["\(try #require(PostgreSQLTestServer.url))", stack.schema, "migrate", "\(writer)", "0"])
        }
        for (writer, errors) in writers {
            writer.waitUntilExit()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(writer.terminationStatus == 0, "\(message)")
        }
        let migrated = try PostgreSQLStack(model: try CounterModel.make(version: 2), options: stack.options).newContext()
        let (total, labels) = try migrated.performAndWait {
            let counter = try #require(try migrated.fetch(NSFetchRequest<NSManagedObject>(entityName: "Counter")).first)
            counter.setValue("migrated", forKey: "note")
            try migrated.save()
            let labels = try migrated.fetch(NSFetchRequest<NSManagedObject>(entityName: "Tally")).compactMap { $0.value(forKey: "label") as? String }
            return (counter.value(forKey: "total") as? Int64, labels.sorted())
        }
        #expect(total == 41)
        #expect(labels == ["writer 0", "writer 1"])
        // The old model no longer opens the store.
        let error = #expect(throws: NSError.self) { try stack.another() }
        #expect(error?.code == NSPersistentStoreIncompatibleVersionHashError)
    }

    /// Starts the writer program, built beside the test bundle, in a child process.
    private static func launch(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        let directory = try #require(Bundle.main.executableURL?.deletingLastPathComponent())
        process.executableURL = directory.appendingPathComponent("CoreDataPostgreSQLWriter")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        return (process, errors)
    }
}
