@testable import CoreData
import Testing

/// Staged migration on real stores: a lightweight stage followed by a custom stage whose handlers
/// fill nils before an attribute becomes mandatory and finish the data after, with the store
/// reached through the manager's container; stages skipped for a newer store; failures (a
/// throwing handler, a backward migration, references that do not resolve); and model references
/// by model, file, name and entity hashes. Each runs on SQLite and on PostgreSQL.
@Suite struct StagedMigrationTests {
    typealias Models = MigrationModels

    /// v1: notes with an optional title; v2 adds a priority; v3 makes the title mandatory.
    static func notes(_ version: Int) -> NSManagedObjectModel {
        var attributes = [
            Models.attribute("title", .stringAttributeType, optional: version < 3),
            Models.attribute("body", .stringAttributeType),
        ]
        if version >= 2 { attributes.append(Models.attribute("priority", .integer16AttributeType)) }
        return ModelFixtureKit.model([ModelFixtureKit.entity("Note", attributes)])
    }

    static func reference(_ version: Int) -> NSManagedObjectModelReference {
        let model = notes(version)
        return NSManagedObjectModelReference(model: model, versionChecksum: model.versionChecksum)
    }

    /// A v1 store with a titled and an untitled note.
    static func notesStore(_ label: String, version: Int = 1, storeType: String = NSSQLiteStoreType) throws -> MigrationScenario {
        let scenario = try MigrationScenario(label, storeType: storeType)
        try scenario.write(notes(version)) { context in
            ctxInsert("Note", into: context, ["title": "Groceries", "body": "milk"])
            ctxInsert("Note", into: context, ["body": "untitled thoughts"])
        }
        return scenario
    }

    /// The stages v1 → v2 and v2 → v3, both custom (a lightweight stage names versions by checksum,
    /// which only model files resolve), the second with the handlers given.
    static func stages(
        willMigrate: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)?,
        didMigrate: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)? = nil
    ) -> NSStagedMigrationManager {
        let custom = NSCustomMigrationStage(migratingFrom: reference(2), to: reference(3))
        custom.label = "Titles become mandatory"
        custom.willMigrateHandler = willMigrate
        custom.didMigrateHandler = didMigrate
        return NSStagedMigrationManager([NSCustomMigrationStage(migratingFrom: reference(1), to: reference(2)), custom])
    }

    /// Fills the nil titles of the store the manager's container holds.
    static func fillTitles(_ manager: NSStagedMigrationManager, _ stage: NSCustomMigrationStage) throws {
        let container = try #require(manager.container)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
            request.predicate = NSPredicate(format: "title == nil")
            for note in try context.fetch(request) {
                note.setValue("Untitled", forKey: "title")
            }
            try context.save()
        }
    }

    static func openingOptions(_ manager: NSStagedMigrationManager) -> [AnyHashable: Any] {
        [NSPersistentStoreStagedMigrationManagerOptionKey: manager]
    }

    static func titles(_ context: NSManagedObjectContext) throws -> [String] {
        try ctxFetch("Note", in: context, sortedBy: "body").map { note in
            let priority = note.entity.attributesByName["priority"] == nil ? "-" : "\(note.value(forKey: "priority") ?? "nil")"
            return "\(note.value(forKey: "title") ?? "nil")/\(priority)"
        }
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func aCustomStagePreparesAndFinishesTheDataAroundItsMigration(_ storeType: String) throws {
        let scenario = try Self.notesStore("custom-stage", storeType: storeType)
        defer { scenario.remove() }
        var events: [String] = []
        let manager = Self.stages(
            willMigrate: { manager, stage in
                events.append("will \(manager.container?.managedObjectModel.versionChecksum == Self.notes(2).versionChecksum) \(stage.label ?? "")")
                try Self.fillTitles(manager, stage)
            },
            didMigrate: { manager, _ in
                let container = try #require(manager.container)
                events.append("did \(container.managedObjectModel.versionChecksum == Self.notes(3).versionChecksum)")
                let context = container.newBackgroundContext()
                try context.performAndWait {
                    for note in try ctxFetch("Note", in: context, sortedBy: "body") { note.setValue(1, forKey: "priority") }
                    try context.save()
                }
            }
        )
        let container = NSPersistentContainer(name: "Notes", managedObjectModel: Self.notes(3))
        let description = NSPersistentStoreDescription(url: scenario.url)
        description.type = storeType
        for case let (key as String, value as NSObject) in scenario.storeOptions {
            description.setOption(value, forKey: key)
        }
        description.setOption(manager, forKey: NSPersistentStoreStagedMigrationManagerOptionKey)
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil)
        let context = container.newBackgroundContext()
        #expect(try context.performAndWait { try Self.titles(context) } == ["Groceries/1", "Untitled/1"])
        #expect(events == ["will true Titles become mandatory", "did true"])
        #expect(manager.container == nil)
        for store in container.persistentStoreCoordinator.persistentStores {
            try container.persistentStoreCoordinator.remove(store)
        }
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func withoutTheHandlerTheCustomStageFailsAndTheStoreStaysAtItsLastVersion(_ storeType: String) throws {
        let scenario = try Self.notesStore("no-handler", storeType: storeType)
        defer { scenario.remove() }
        let error = try #require(scenario.openingError(Self.notes(3), options: Self.openingOptions(Self.stages(willMigrate: nil))))
        #expect(error.code == NSMigrationError)
        // The lightweight stage completed: the store is a v2 store with its two notes.
        #expect(try scenario.read(Self.notes(2), options: [:], Self.titles) == ["Groceries/nil", "nil/nil"])
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func aThrowingHandlerStopsTheMigrationWithItsError(_ storeType: String) throws {
        struct NotReady: Error {}
        let scenario = try Self.notesStore("throwing-handler", storeType: storeType)
        defer { scenario.remove() }
        let manager = Self.stages(willMigrate: { _, _ in throw NotReady() })
        #expect(throws: NotReady.self) {
            try scenario.open(Self.notes(3), options: Self.openingOptions(manager)).close()
        }
        #expect(manager.container == nil)
        #expect(try scenario.read(Self.notes(2), options: [:], Self.titles).count == 2)
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func stagesBeforeTheStoresVersionAreSkipped(_ storeType: String) throws {
        let scenario = try Self.notesStore("skip", version: 2, storeType: storeType)
        defer { scenario.remove() }
        var ran: [String] = []
        let manager = Self.stages(willMigrate: { manager, stage in
            ran.append("will")
            try Self.fillTitles(manager, stage)
        })
        #expect(try scenario.read(Self.notes(3), options: Self.openingOptions(manager), Self.titles) == ["Groceries/nil", "Untitled/nil"])
        #expect(ran == ["will"])
        // Opened again at v3, the store needs no stage.
        #expect(try scenario.read(Self.notes(3), options: Self.openingOptions(manager), Self.titles).count == 2)
        #expect(ran == ["will"])
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func aStoreIsNeverMigratedBackward(_ storeType: String) throws {
        let scenario = try MigrationScenario("backward", storeType: storeType)
        defer { scenario.remove() }
        try scenario.write(Self.notes(3)) { context in ctxInsert("Note", into: context, ["title": "Done"]) }
        let manager = Self.stages(willMigrate: Self.fillTitles)
        let error = try #require(scenario.openingError(Self.notes(2), options: Self.openingOptions(manager)))
        #expect(error.code == NSStagedMigrationBackwardMigrationError)
        #expect(try scenario.read(Self.notes(3), options: [:], Self.titles) == ["Done/nil"])
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func referencesThatDoNotResolveAreErrors(_ storeType: String) throws {
        let scenario = try Self.notesStore("unresolved", storeType: storeType)
        defer { scenario.remove() }
        let unknownName = NSCustomMigrationStage(migratingFrom: NSManagedObjectModelReference(name: "NoSuchModel", in: nil, versionChecksum: "x"), to: Self.reference(3))
        let wrongChecksum = NSCustomMigrationStage(migratingFrom: NSManagedObjectModelReference(model: Self.notes(1), versionChecksum: Self.notes(2).versionChecksum), to: Self.reference(3))
        let unknownChecksum = NSLightweightMigrationStage([Self.notes(1).versionChecksum, "not-a-checksum"])
        for stage in [unknownName, wrongChecksum, unknownChecksum] {
            let error = try #require(scenario.openingError(Self.notes(3), options: Self.openingOptions(NSStagedMigrationManager([stage]))))
            #expect(error.code == NSManagedObjectModelReferenceNotFoundError)
        }
        #expect(NSManagedObjectModelReference(name: "NoSuchModel", in: nil, versionChecksum: "x").resolvedModel.entities.isEmpty)
        #expect(try scenario.read(Self.notes(1), options: [:], Self.titles).count == 2)
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func aLightweightStageRunsThroughTheVersionsOfAModelFile(_ storeType: String) throws {
        let scenario = try MigrationScenario("lightweight-stage", storeType: storeType)
        defer { scenario.remove() }
        try scenario.write(try ShelfMigrationTests.shelf("Shelf")) { context in
            ctxInsert("Reader", into: context, ["name": "Ann"])
        }
        let checksums = try ["Shelf", "Shelf 2", "Shelf 3"].map { try ShelfMigrationTests.shelf($0).versionChecksum }
        let manager = NSStagedMigrationManager([NSLightweightMigrationStage(checksums)])
        // Opened with version 2, the stage stops there; opened with version 3, it goes on.
        let version2 = try ShelfMigrationTests.shelf("Shelf 2")
        #expect(try scenario.read(version2, options: Self.openingOptions(manager)) { try ctxFetch("Subscriber", in: $0, sortedBy: "name").count } == 1)
        #expect(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: storeType, at: scenario.url, options: scenario.storeOptions)["NSStoreModelVersionChecksumKey"] as? String == checksums[1])
        let version3 = try ShelfMigrationTests.shelf("Shelf 3")
        #expect(try scenario.read(version3, options: Self.openingOptions(manager)) { try ctxFetch("Subscriber", in: $0, sortedBy: "name").count } == 1)
    }

    @Test func referencesFindVersionsByFileNameAndEntityHashes() throws {
        let shelfFile = try #require(Bundle.module.url(forResource: "Shelf", withExtension: "xcdatamodeld"))
        let version2 = try ShelfMigrationTests.shelf("Shelf 2")
        let checksum = version2.versionChecksum
        let references = [
            NSManagedObjectModelReference(fileURL: shelfFile, versionChecksum: checksum),
            NSManagedObjectModelReference(name: "Shelf", in: Bundle.module, versionChecksum: checksum),
            NSManagedObjectModelReference(entityVersionHashes: version2.entityVersionHashesByName, in: Bundle.module, versionChecksum: checksum),
        ]
        for reference in references {
            #expect(reference.resolvedModel.versionChecksum == checksum)
            #expect(reference.resolvedModel.entitiesByName["Subscriber"] != nil)
        }
    }
}
