@testable import CoreData
import Testing

/// Store metadata that cannot be read or written gives errors, never crashes.
@Suite("SQLite store metadata errors")
struct SQLiteMetadataErrorTests {
    @Test("a damaged metadata property list makes opening fail with 134080 and leaves the file unchanged")
    func damagedMetadataBlob() throws {
        let directory = try SQLiteScratchDirectory("metadata-damaged")
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        try SQLiteTestStack(model: MovieModel.make(), url: url).close()
        let connection = try SQLiteConnection(path: url.path, readOnly: false, create: false)
        let statement = try connection.statement("UPDATE Z_METADATA SET Z_PLIST = ?")
        statement.bind(Data("bplist00".utf8) + Data(repeating: 0xFF, count: 40), at: 1)
        try statement.run()
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.close()
        let before = StoreFileProbe.bytes(url)

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: MovieModel.make())
        #expect {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url)
        } throws: { error in
            (error as NSError).domain == NSCocoaErrorDomain && (error as NSError).code == NSPersistentStoreOpenError
        }
        #expect(throws: (any Error).self) {
            try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        }
        #expect(StoreFileProbe.bytes(url) == before)
    }

    @Test("metadata holding a value that is not a property-list type makes the save throw")
    func metadataValueThatIsNotAPropertyList() throws {
        let directory = try SQLiteScratchDirectory("metadata-invalid")
        defer { directory.remove() }
        let stack = try SQLiteTestStack(model: MovieModel.make(), url: directory.file("Movies.sqlite"))
        defer { stack.close() }
        var metadata = stack.coordinator.metadata(for: stack.store)
        metadata["notAPropertyList"] = NSObject()
        stack.coordinator.setMetadata(metadata, for: stack.store)
        stack.context.performAndWait {
            let movie = NSEntityDescription.insertNewObject(forEntityName: "Movie", into: stack.context)
            movie.setValue("Alien", forKey: "title")
            #expect(throws: (any Error).self) { try stack.context.save() }
            #expect(stack.context.hasChanges)
        }
    }
}
