@testable import CoreData
import Testing

/// `coredata migrate`, run as a program (the build puts the tool beside the tests): the printed
/// plan, `--dry-run`, the migration itself, errors, and a migration killed part-way through.
@Suite struct MigrateCommandTests {
    private static var shelf: URL {
        get throws {
            try #require(Bundle.module.url(forResource: "Shelf", withExtension: "xcdatamodeld"))
        }
    }

    private static func run(_ arguments: [String]) throws -> ProgramRun {
        try CoreDataToolRun.run(["migrate"] + arguments)
    }

    /// A Shelf version 1 store with `count` volumes by one writer.
    private static func writeStore(_ scenario: MigrationScenario, volumes count: Int) throws {
        try scenario.write(try ShelfMigrationTests.shelf("Shelf")) { context in
            let writer = ctxInsert("Writer", into: context, ["name": "Tolkien", "country": "UK"])
            for index in 0..<count {
                ctxInsert("Volume", into: context, ["title": "Volume \(index)", "pages": index % 1000, "writer": writer])
            }
            ctxInsert("Sticker", into: context, ["text": "sale"])
        }
    }

    private static func metadata(_ url: URL) throws -> [String: Any] {
        try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
    }

    @Test func dryRunPrintsThePlanEntityByEntityAndChangesNothing() throws {
        let scenario = try MigrationScenario("cli-dry")
        defer { scenario.remove() }
        try Self.writeStore(scenario, volumes: 2)
        let before = StoreFileProbe.bytes(scenario.url)
        let outcome = try Self.run(["--store", scenario.url.path, "--model", try Self.shelf.path, "--dry-run"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.contains("from Shelf to the current version of Shelf.xcdatamodeld"))
        #expect(outcome.output.contains("~ Reader → Subscriber (renamed)"))
        #expect(outcome.output.contains("~ favorites: renamed from favorite; to-one → to-many"))
        #expect(outcome.output.contains("~ fullName: renamed from name"))
        #expect(outcome.output.contains("- country: removed"))
        #expect(outcome.output.contains("+ rank: new (default 0)"))
        #expect(outcome.output.contains("~ pages: Integer 16 → Integer 64"))
        #expect(outcome.output.contains("~ parent entity: none → Work"))
        #expect(outcome.output.contains("~ isbn: now mandatory, nil becomes unknown"))
        #expect(outcome.output.contains("- Sticker: removed, with its rows"))
        #expect(outcome.output.contains("+ Pamphlet: new entity"))
        #expect(StoreFileProbe.bytes(scenario.url) == before)
        #expect(try ShelfMigrationTests.shelf("Shelf").isConfiguration(withName: nil, compatibleWithStoreMetadata: try Self.metadata(scenario.url)))
    }

    @Test func migratesTheStoreWithAProgressBar() throws {
        let scenario = try MigrationScenario("cli-run")
        defer { scenario.remove() }
        try Self.writeStore(scenario, volumes: 3)
        let outcome = try Self.run(["--store", scenario.url.path, "--model", try Self.shelf.path])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.contains("Migrated Store.sqlite."))
        #expect(outcome.errors.contains("[##############################] 100%"))
        #expect(try ShelfMigrationTests.shelf("Shelf 3").isConfiguration(withName: nil, compatibleWithStoreMetadata: try Self.metadata(scenario.url)))
        let again = try Self.run(["--store", scenario.url.path, "--model", try Self.shelf.path])
        #expect(again.output.contains("nothing to do"))
    }

    @Test func aStoreOfAnotherModelIsRefused() throws {
        let scenario = try MigrationScenario("cli-foreign")
        defer { scenario.remove() }
        try scenario.write(MigrationModels.book([MigrationModels.attribute("title", .stringAttributeType)])) { context in
            ctxInsert("Book", into: context, ["title": "A"])
        }
        let outcome = try Self.run(["--store", scenario.url.path, "--model", try Self.shelf.path])
        #expect(outcome.status == 1)
        #expect(outcome.errors.contains("No version of Shelf.xcdatamodeld matches Store.sqlite (error 134130)"))
        let missing = try Self.run(["--store", scenario.directory.file("none.sqlite").path, "--model", try Self.shelf.path])
        #expect(missing.status == 1)
        #expect(missing.errors.hasPrefix("error: "))
    }

    /// Kills the tool at several moments of a migration that rebuilds a large table: each time the
    /// store is either still the intact version 1 store or completely migrated.
    @Test func killingTheMigrationLeavesEitherTheOldOrTheNewStore() throws {
        let scenario = try MigrationScenario("cli-kill")
        defer { scenario.remove() }
        try Self.writeStore(scenario, volumes: 60_000)
        let original = scenario.directory.file("Original.sqlite")
        try FileManager.default.copyItem(at: scenario.url, to: original)
        var outcomes: Set<String> = []
        for delay in [0.05, 0.15, 0.3, 0.6] {
            try? SQLiteStore.destroyStore(at: scenario.url)
            try FileManager.default.copyItem(at: original, to: scenario.url)
            let (process, _, _) = try CoreDataToolRun.process(["migrate", "--store", scenario.url.path, "--model", try Self.shelf.path])
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let metadata = try Self.metadata(scenario.url)
            if try ShelfMigrationTests.shelf("Shelf").isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) {
                outcomes.insert("old")
                let count = try scenario.read(try ShelfMigrationTests.shelf("Shelf"), options: [:]) { try $0.count(for: NSFetchRequest<NSManagedObject>(entityName: "Volume")) }
                #expect(count == 60_000)
            } else {
                outcomes.insert("new")
                #expect(try ShelfMigrationTests.shelf("Shelf 3").isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
                let count = try scenario.read(try ShelfMigrationTests.shelf("Shelf 3"), options: [:]) { try $0.count(for: NSFetchRequest<NSManagedObject>(entityName: "Volume")) }
                #expect(count == 60_000)
            }
        }
        #expect(!outcomes.isEmpty)
    }
}
