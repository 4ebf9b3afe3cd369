import CoreDataPostgreSQL
import Foundation
import Testing

/// The coordinator's methods on a PostgreSQL store that no coordinator needs open: its metadata,
/// its destruction and its replacement, each finding the store by the options it was added with.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipMessage)))
struct PostgreSQLStoreLocationTests {
    @Test func theMetadataIsReadFromTheSchemaTheOptionsName() throws {
        let first = try PostgreSQLStack(model: LibraryModel.make())
        let second = try PostgreSQLStack(model: LibraryModel.make())
        let url = try #require(PostgreSQLTestServer.url)
        for stack in [first, second] {
            let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSPostgreSQLStoreType, at: url, options: stack.options)
            #expect(metadata[NSStoreUUIDKey] as? String == stack.store.identifier)
            #expect(metadata[NSStoreTypeKey] as? String == NSPostgreSQLStoreType)
        }
        #expect(first.store.identifier != second.store.identifier)
    }

    @Test func metadataWrittenWithoutACoordinatorReachesTheStoreOfTheSchema() throws {
        let stack = try PostgreSQLStack(model: LibraryModel.make())
        let url = try #require(PostgreSQLTestServer.url)
        let identifier = stack.store.identifier
        for store in stack.coordinator.persistentStores { try stack.coordinator.remove(store) }
        try NSPersistentStoreCoordinator.setMetadata(["appVersion": "2.1"], forPersistentStoreOfType: NSPostgreSQLStoreType, at: url, options: stack.options)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSPostgreSQLStoreType, at: url, options: stack.options)
        #expect(metadata["appVersion"] as? String == "2.1")
        #expect(metadata[NSStoreUUIDKey] as? String == identifier)
        let reopened = try stack.another()
        #expect(reopened.store.metadata["appVersion"] as? String == "2.1")
        #expect(reopened.store.identifier == identifier)
    }

    @Test func destroyingAStoreDropsItsSchemaAndAddingItAgainStartsEmpty() throws {
        let stack = try PostgreSQLStack(model: LibraryModel.make())
        try stack.saveBooks(titled: ["Kept?"])
        let url = try #require(PostgreSQLTestServer.url)
        try stack.coordinator.destroyPersistentStore(at: url, type: .postgreSQL, options: stack.options)
        #expect(stack.coordinator.persistentStores.isEmpty)

        let error = #expect(throws: NSError.self) {
            try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSPostgreSQLStoreType, at: url, options: stack.options)
        }
        #expect(error?.code == NSPersistentStoreOpenError)
        let fresh = try stack.another().newContext()
        let count = try fresh.performAndWait { try fresh.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book")) }
        #expect(count == 0)
    }

    @Test func aStoreIsReplacedWithACopyOfTheStoreOfAnotherSchema() throws {
        let replaced = try PostgreSQLStack(model: LibraryModel.make())
        let replacement = try PostgreSQLStack(model: LibraryModel.make())
        try replaced.saveBooks(titled: ["Old"])
        try replacement.saveBooks(titled: ["Émile"])
        try replaced.coordinator.remove(replaced.store)
        let url = try #require(PostgreSQLTestServer.url)
        try replaced.coordinator.replacePersistentStore(at: url, destinationOptions: replaced.options, withPersistentStoreFrom: url, sourceOptions: replacement.options, type: .postgreSQL)

        let reopened = try replaced.another()
        #expect(reopened.store.identifier == replacement.store.identifier)
        let context = reopened.newContext()
        try context.performAndWait {
            // The copy's functions answer a [cd] predicate, and its keys go on from the source's.
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.predicate = NSPredicate(format: "title ==[cd] %@", "EMILE")
            #expect(try context.fetch(request).map { $0.value(forKey: "title") as? String } == ["Émile"])
            NSEntityDescription.insertNewObject(forEntityName: "Book", into: context).setValue("Added", forKey: "title")
            try context.save()
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book")) == 2)
        }
        #expect(try replacement.bookTitles() == ["Émile"])
    }

    @Test func aReplacementThatIsNoStoreOrAStoreWithoutASchemaOfItsOwnIsRefused() throws {
        let kept = try PostgreSQLStack(model: LibraryModel.make())
        try kept.saveBooks(titled: ["Kept"])
        try kept.coordinator.remove(kept.store)
        let url = try #require(PostgreSQLTestServer.url)
        let noStore = PostgreSQLTestServer.newSchemaOptions()
        for (sourceOptions, destinationOptions, code) in [(noStore, kept.options, NSPersistentStoreOpenError), (kept.options, nil, NSPersistentStoreOperationError)] {
            let error = #expect(throws: NSError.self) {
                try kept.coordinator.replacePersistentStore(at: url, destinationOptions: destinationOptions, withPersistentStoreFrom: url, sourceOptions: sourceOptions, type: .postgreSQL)
            }
            #expect(error?.code == code)
        }
        #expect(try kept.another().bookTitles() == ["Kept"])
    }

    @Test func aSchemaWithNoStoreIsNamedInTheErrorWithTheServerButNotItsPassword() throws {
        let server = try #require(PostgreSQLTestServer.url)
        var components = try #require(URLComponents(url: server, resolvingAgainstBaseURL: false))
        components.password = "not-shown"
        let url = try #require(components.url)
        let options = PostgreSQLTestServer.newSchemaOptions()
        let error = #expect(throws: NSError.self) {
            try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSPostgreSQLStoreType, at: url, options: options)
        }
        let description = error?.userInfo["reason"] as? String ?? ""
        #expect(error?.code == NSPersistentStoreOpenError)
        #expect(description.contains("the schema \(options[NSPostgreSQLSchemaOption] as? String ?? "?") of the database has no Core Data store"))
        #expect(description.contains(server.path))
        #expect(!description.contains("not-shown"))
    }

    @Test func destroyingAStoreWithoutASchemaOfItsOwnIsRefused() throws {
        let url = try #require(PostgreSQLTestServer.url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: LibraryModel.make())
        let error = #expect(throws: NSError.self) {
            try coordinator.destroyPersistentStore(at: url, ofType: NSPostgreSQLStoreType, options: nil)
        }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(error?.code == NSPersistentStoreOperationError)
    }
}
