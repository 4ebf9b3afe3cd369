@testable import CoreData
import Testing

/// `coredata history`, run as a program: a store's transactions and changes, filtered by token,
/// date and author, and a store that records no history.
@Suite struct HistoryCommandTests {
    private static var shelf: URL {
        get throws {
            try #require(Bundle.module.url(forResource: "Shelf", withExtension: "xcdatamodeld"))
        }
    }

    /// A Shelf version 1 store with history: an importer's insert of a writer and a volume,
    /// then an editor's update of the volume and insert and delete of a sticker.
    private static func writeStore(_ scenario: MigrationScenario) throws {
        let stack = try SQLiteTestStack(model: try ShelfMigrationTests.shelf("Shelf"), url: scenario.url, options: [NSPersistentHistoryTrackingKey: true])
        defer { stack.close() }
        try stack.context.performAndWait {
            stack.context.transactionAuthor = "importer"
            let writer = ctxInsert("Writer", into: stack.context, ["name": "Le Guin"])
            let volume = ctxInsert("Volume", into: stack.context, ["title": "Earthsea", "writer": writer])
            try stack.context.save()
            stack.context.transactionAuthor = "editor"
            volume.setValue(Int16(250), forKey: "pages")
            let sticker = ctxInsert("Sticker", into: stack.context, ["text": "sale"])
            try stack.context.save()
            stack.context.delete(sticker)
            try stack.context.save()
        }
    }

    private static func history(_ scenario: MigrationScenario, _ arguments: [String] = []) throws -> ProgramRun {
        try CoreDataToolRun.run(["history", scenario.url.path, "--model", try shelf.path] + arguments)
    }

    @Test func everyTransactionWithItsChanges() throws {
        let scenario = try MigrationScenario("history-all")
        defer { scenario.remove() }
        try Self.writeStore(scenario)
        let run = try Self.history(scenario)
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("Transaction ") }.count == 3)
        #expect(lines.contains { $0.hasPrefix("Transaction 1 (token 1)") && $0.contains("author importer") })
        #expect(lines.contains { $0.contains("insert  Writer") && $0.contains("/Writer/p1") })
        #expect(lines.contains { $0.contains("update  Volume") && $0.hasSuffix("pages") })
        #expect(lines.contains { $0.contains("delete  Sticker") })
        #expect(lines.last == "3 transactions")
    }

    @Test func tokensDatesAndAuthorsFilterTheTransactions() throws {
        let scenario = try MigrationScenario("history-filter")
        defer { scenario.remove() }
        try Self.writeStore(scenario)
        let afterFirst = try Self.history(scenario, ["--after", "1"])
        #expect(afterFirst.output.split(separator: "\n").last == "2 transactions")
        #expect(!afterFirst.output.contains("Transaction 1 "))
        let byImporter = try Self.history(scenario, ["--author", "importer"])
        #expect(byImporter.output.split(separator: "\n").last == "1 transaction")
        let future = try Self.history(scenario, ["--after", "2100-01-01T00:00:00Z"])
        #expect(future.output == "0 transactions\n")
        let bad = try Self.history(scenario, ["--after", "yesterday"])
        #expect(bad.status == 1)
        #expect(bad.errors.hasPrefix("error: --after takes a token"))
    }

    @Test func aStoreWithoutHistoryIsRefusedInOneLine() throws {
        let scenario = try MigrationScenario("history-none")
        defer { scenario.remove() }
        try scenario.write(try ShelfMigrationTests.shelf("Shelf")) { context in
            ctxInsert("Sticker", into: context, ["text": "sale"])
        }
        let run = try Self.history(scenario)
        #expect(run.status == 1)
        #expect(run.errors == "error: Store.sqlite records no persistent history.\n")
    }
}
