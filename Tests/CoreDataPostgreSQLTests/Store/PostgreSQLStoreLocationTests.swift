import CoreDataPostgreSQL
import Foundation
import Testing

/// The coordinator's class methods on a PostgreSQL store that no coordinator needs open: its
/// metadata and its destruction, each finding the store by the options it was added with.
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
        let context = stack.newContext()
        try context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Book", into: context).setValue("Kept?", forKey: "title")
            try context.save()
        }
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
