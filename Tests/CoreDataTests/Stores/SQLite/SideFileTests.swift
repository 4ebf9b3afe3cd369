@testable import CoreData
import Testing

/// Reading a closed store, or failing to open it, leaves no `-wal` or `-shm` file beside a store
/// that had none: Apple's Core Data leaves the directory as it found it.
@Suite struct SideFileTests {
    /// A closed store written with the Movie model, with no side files left.
    private static func closedStore(_ directory: SQLiteScratchDirectory) throws -> URL {
        let url = directory.file("Movies.sqlite")
        let stack = try SQLiteTestStack(model: MovieModel.make(), url: url)
        try stack.context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Movie", into: stack.context).setValue("Alien", forKey: "title")
            try stack.context.save()
        }
        stack.close()
        #expect(try Self.contents(of: directory) == ["Movies.sqlite"])
        return url
    }

    private static func contents(of directory: SQLiteScratchDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
    }

    @Test func readingMetadataLeavesNoSideFiles() throws {
        let directory = try SQLiteScratchDirectory("side-files-metadata")
        defer { directory.remove() }
        let url = try Self.closedStore(directory)
        _ = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        #expect(try Self.contents(of: directory) == ["Movies.sqlite"])
    }

    @Test func openingWithAnIncompatibleModelLeavesNoSideFiles() throws {
        let directory = try SQLiteScratchDirectory("side-files-incompatible")
        defer { directory.remove() }
        let url = try Self.closedStore(directory)
        let model = MovieModel.make()
        model.entitiesByName["Movie"]?.versionHashModifier = "v2"
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        #expect(throws: (any Error).self) {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        }
        #expect(try Self.contents(of: directory) == ["Movies.sqlite"])
    }

    @Test func openingWithAModelThatDoesNotMatchTheTablesLeavesNoSideFiles() throws {
        let directory = try SQLiteScratchDirectory("side-files-schema")
        defer { directory.remove() }
        let url = try Self.closedStore(directory)
        let model = MovieModel.make()
        model.entities = model.entities + [ModelFixtureKit.entity("Studio", [ModelFixtureKit.attribute("name", .stringAttributeType)])]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        // The model's hashes are ignored, so the store is opened before its tables are checked.
        #expect(throws: (any Error).self) {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: [NSIgnorePersistentStoreVersioningOption: true])
        }
        #expect(try Self.contents(of: directory) == ["Movies.sqlite"])
    }

    @Test func aStoreOpenElsewhereKeepsItsSideFiles() throws {
        let directory = try SQLiteScratchDirectory("side-files-open")
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        let stack = try SQLiteTestStack(model: MovieModel.make(), url: url)
        defer { stack.close() }
        try stack.context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Movie", into: stack.context).setValue("Alien", forKey: "title")
            try stack.context.save()
        }
        _ = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        #expect(StoreFileProbe.exists(StoreFileProbe.sidecar(url, "-wal")))
        let count = try stack.context.performAndWait { try stack.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Movie")) }
        #expect(count == 1)
    }
}
