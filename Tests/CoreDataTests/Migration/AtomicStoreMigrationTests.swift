@testable import CoreData
import Testing

/// Binary and XML stores written with one version of the Shelf model and added with another:
/// migrated through the inferred mapping with Apple's options, refused otherwise, and never
/// left half-migrated.
@Suite struct AtomicStoreMigrationTests {
    static let types: [NSPersistentStore.StoreType] = [.binary, .xml]

    /// A version 1 shelf in a scratch directory: two writers, two volumes, a reader with a
    /// favorite; its metadata has a key of the program's.
    private func writeVersion1(_ type: NSPersistentStore.StoreType) throws -> (CtxTemporaryDirectory, URL) {
        let directory = try CtxTemporaryDirectory()
        let url = directory.url.appendingPathComponent("Shelf.\(type.rawValue)")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try ShelfMigrationTests.shelf("Shelf"))
        let store = try coordinator.addPersistentStore(type: type, at: url)
        coordinator.setMetadata(store.metadata.merging(["Imported": "yes"]) { _, new in new }, for: store)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let tolkien = ctxInsert("Writer", into: context, ["name": "Tolkien", "country": "UK"])
            let le = ctxInsert("Writer", into: context, ["name": "Le Guin"])
            let hobbit = ctxInsert("Volume", into: context, ["title": "The Hobbit", "pages": 310, "isbn": "0261102214", "writer": tolkien])
            ctxInsert("Volume", into: context, ["title": "Earthsea", "writer": le])
            ctxInsert("Reader", into: context, ["name": "Ann", "favorite": hobbit])
            try context.save()
        }
        return (directory, url)
    }

    @Test(arguments: types)
    func aStoreOfAnEarlierVersionMigratesKeepingItsObjectsUUIDAndMetadata(type: NSPersistentStore.StoreType) throws {
        let (directory, url) = try writeVersion1(type)
        defer { withExtendedLifetime(directory) {} }
        let uuid = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)[NSStoreUUIDKey] as? String
        let version2 = try ShelfMigrationTests.shelf("Shelf 2")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: version2)
        let store = try coordinator.addPersistentStore(type: type, at: url, options: MigrationScenario.lightweight)
        #expect(store.identifier == uuid)
        #expect(store.metadata["Imported"] as? String == "yes")
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let writers = try ctxFetch("Writer", in: context, sortedBy: "fullName")
            #expect(writers.map { $0.value(forKey: "fullName") as? String } == ["Le Guin", "Tolkien"])
            #expect(writers.map { $0.value(forKey: "rank") as? Int } == [0, 0])
            let works = try #require(writers[1].value(forKey: "works") as? NSOrderedSet)
            #expect(works.array.compactMap { ($0 as? NSManagedObject)?.value(forKey: "isbn") as? String } == ["0261102214"])
            let volumes = try ctxFetch("Volume", in: context, sortedBy: "title")
            #expect(volumes.map { $0.value(forKey: "isbn") as? String } == ["unknown", "0261102214"])
            let subscriber = try #require(try ctxFetch("Subscriber", in: context).first)
            #expect((subscriber.value(forKey: "favorites") as? NSSet)?.count == 1)
        }
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)
        #expect(version2.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(leftovers == [url.lastPathComponent])
    }

    /// Without the migration option, read-only, or without inference: Apple's error, and the
    /// file as it was.
    @Test(arguments: types)
    func aStoreThatCannotMigrateIsRefusedAndLeftAsItWas(type: NSPersistentStore.StoreType) throws {
        let (directory, url) = try writeVersion1(type)
        defer { withExtendedLifetime(directory) {} }
        let before = try Data(contentsOf: url)
        let refusals: [([AnyHashable: Any]?, Int)] = [
            (nil, NSPersistentStoreIncompatibleVersionHashError),
            (MigrationScenario.lightweight.merging([NSReadOnlyPersistentStoreOption: true]) { _, new in new }, NSPersistentStoreIncompatibleVersionHashError),
            ([NSMigratePersistentStoresAutomaticallyOption: true], NSMigrationMissingMappingModelError),
        ]
        for (options, code) in refusals {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try ShelfMigrationTests.shelf("Shelf 2"))
            #expect { try coordinator.addPersistentStore(type: type, at: url, options: options) } throws: { ($0 as NSError).code == code }
            #expect(try Data(contentsOf: url) == before)
        }
    }

    /// A migration that fails on the way (a book without the title the new version requires)
    /// throws, and leaves the file byte-identical with nothing beside it.
    @Test(arguments: types)
    func aMigrationThatFailsOnTheWayLeavesTheFileAsItWas(type: NSPersistentStore.StoreType) throws {
        let directory = try CtxTemporaryDirectory()
        let url = directory.url.appendingPathComponent("Books.\(type.rawValue)")
        let source = MigrationModels.book([MigrationModels.attribute("title", .stringAttributeType)])
        let destination = MigrationModels.book([MigrationModels.attribute("title", .stringAttributeType, optional: false)])
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: source)
        let store = try coordinator.addPersistentStore(type: type, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            ctxInsert("Book", into: context)
            try context.save()
        }
        let before = try Data(contentsOf: url)
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)
        let migration = AtomicStoreMigration(store: store, url: url, metadata: metadata, sourceModel: source, destinationModel: destination, mapping: mapping)
        #expect(throws: (any Error).self) { try migration.run() }
        #expect(try Data(contentsOf: url) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == [url.lastPathComponent])
    }
}
