@testable import CoreData
import Testing

/// Store metadata without a coordinator, in the `StoreType` forms of the coordinator's class
/// methods and through `NSPersistentStore`'s class methods; the version constants and the
/// metadata keys added in later releases.
@Suite struct StoreMetadataTests {
    /// A saved store file with one person.
    private func storeFile() throws -> (CtxStack, URL) {
        let stack = try CtxStack(model: CtxGraphModel.make())
        try stack.context.performAndWait {
            ctxInsert("Person", into: stack.context, ["name": "Ann"])
            try stack.context.save()
        }
        return (stack, try #require(stack.store.url))
    }

    @Test func theStoreTypeFormsReadAndWriteTheFilesMetadata() throws {
        let (stack, url) = try storeFile()
        let uuid = stack.storeUUID
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        #expect(metadata[NSStoreUUIDKey] as? String == uuid)
        #expect(metadata[NSStoreTypeKey] as? String == NSSQLiteStoreType)

        try stack.coordinator.remove(stack.store)
        try NSPersistentStoreCoordinator.setMetadata(["Imported": "yes"], type: .sqlite, at: url)
        let written = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url, options: nil)
        #expect(written["Imported"] as? String == "yes")
        #expect(written[NSStoreUUIDKey] as? String == uuid, "the store's own keys stay")
        try NSPersistentStoreCoordinator.setMetadata(nil, type: .sqlite, at: url)
        #expect(try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)["Imported"] as? String == "yes")

        // The store still opens with its model, and keeps the key.
        let reopened = try stack.reopened()
        #expect(reopened.coordinator.metadata(for: reopened.store)["Imported"] as? String == "yes")
    }

    @Test func missingForeignAndFilelessStoresAreErrors() throws {
        let directory = try CtxTemporaryDirectory()
        let missing = directory.url.appendingPathComponent("Missing.sqlite")
        let missingError = ctxError { _ = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: missing) }
        #expect(missingError?.domain == NSCocoaErrorDomain)
        #expect(missingError?.code == NSFileReadNoSuchFileError)
        #expect(!FileManager.default.fileExists(atPath: missing.path))

        let text = directory.url.appendingPathComponent("Notes.sqlite")
        try Data("just some text, not a database".utf8).write(to: text)
        #expect(ctxError { _ = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: text) }?.code == NSPersistentStoreOpenError)
        #expect(ctxError { try NSPersistentStoreCoordinator.setMetadata(["k": "v"], type: .sqlite, at: text) }?.code == NSPersistentStoreOpenError)
        #expect(try Data(contentsOf: text) == Data("just some text, not a database".utf8))

        #expect(ctxError { _ = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .inMemory, at: text) }?.code == NSPersistentStoreInvalidTypeError)
    }

    /// An empty file, or a SQLite database without tables, exists but holds no store: 134080 as
    /// for any other file that is not a store, not 260 ("no such file"); the file is left as it was.
    @Test(arguments: [false, true])
    func aFileWithoutTablesIsNotAStore(isDatabase: Bool) throws {
        let directory = try CtxTemporaryDirectory()
        let url = directory.url.appendingPathComponent("Empty.sqlite")
        if isDatabase {
            let connection = try SQLiteConnection(path: url.path, readOnly: false, create: true)
            try connection.execute("PRAGMA user_version = 7")
            connection.close()
        } else {
            try Data().write(to: url)
        }
        let contents = try Data(contentsOf: url)
        #expect(isDatabase == !contents.isEmpty)

        let error = ctxError { _ = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url) }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(error?.code == NSPersistentStoreOpenError)
        #expect(ctxError { try NSPersistentStoreCoordinator.setMetadata(["k": "v"], forPersistentStoreOfType: NSSQLiteStoreType, at: url) }?.code == NSPersistentStoreOpenError)
        #expect(try Data(contentsOf: url) == contents)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["Empty.sqlite"])
    }

    @Test func aStoreClassReadsAndWritesTheMetadataOfItsFiles() throws {
        let (stack, url) = try storeFile()
        let storeClass = type(of: stack.store)
        #expect(try storeClass.metadataForPersistentStore(with: url)[NSStoreUUIDKey] as? String == stack.storeUUID)
        try stack.coordinator.remove(stack.store)
        try storeClass.setMetadata(["Imported": 1], forPersistentStoreAt: url)
        #expect(try storeClass.metadataForPersistentStore(with: url)["Imported"] as? Int == 1)
        #expect(ctxError { _ = try storeClass.metadataForPersistentStore(with: url.appendingPathExtension("missing")) }?.code == NSFileReadNoSuchFileError)

        // The base class, and the in-memory store's, keep no files.
        #expect(ctxError { _ = try NSPersistentStore.metadataForPersistentStore(with: url) }?.code == NSPersistentStoreInvalidTypeError)
        let memory = try CtxStack(model: CtxGraphModel.make(), storeType: NSInMemoryStoreType)
        #expect(ctxError { try type(of: memory.store).setMetadata([:], forPersistentStoreAt: url) }?.code == NSPersistentStoreInvalidTypeError)
        #expect(try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)["Imported"] as? Int == 1)
    }

    /// A store class of a program's own, which keeps its metadata in a file of its own format.
    final class JSONMetadataStore: NSPersistentStore, @unchecked Sendable {
        final class Migrator: NSMigrationManager {}

        override class func metadataForPersistentStore(with url: URL) throws -> [String: Any] {
            try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
        }

        override class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreAt url: URL) throws {
            try JSONSerialization.data(withJSONObject: metadata ?? [:]).write(to: url)
        }

        override class func migrationManagerClass() -> AnyClass {
            Migrator.self
        }
    }

    @Test func storeSubclassesOverrideTheClassMethods() throws {
        let directory = try SQLiteScratchDirectory("json-metadata")
        defer { directory.remove() }
        let url = directory.file("Store.json")
        let store: NSPersistentStore = JSONMetadataStore(persistentStoreCoordinator: nil, configurationName: nil, at: url)
        let storeClass = type(of: store)
        try storeClass.setMetadata(["Version": 2], forPersistentStoreAt: url)
        #expect(try storeClass.metadataForPersistentStore(with: url)["Version"] as? Int == 2)
        #expect(ObjectIdentifier(storeClass.migrationManagerClass()) == ObjectIdentifier(JSONMetadataStore.Migrator.self))
    }

    @Test func theChecksumKeyReadsTheModelsVersionChecksum() throws {
        let (stack, _) = try storeFile()
        let metadata = stack.coordinator.metadata(for: stack.store)
        #expect(metadata[NSPersistentStoreModelVersionChecksumKey] as? String == stack.model.versionChecksum)
    }

    @Test func theVersionConstantsAreApples() {
        #expect(NSCoreDataVersionNumber10_4 == 46.0)
        #expect(NSCoreDataVersionNumber10_7_2 == 358.12)
        #expect(NSCoreDataVersionNumber10_11_3 == 641.3)
        #expect(NSCoreDataVersionNumber_iPhoneOS_3_2 == 310.2)
        #expect(NSCoreDataVersionNumber_iPhoneOS_8_3 == 519.15)
        #expect(NSCoreDataVersionNumber_iPhoneOS_9_3 == 641.6)
        // This Core Data is as recent as the framework version it writes into stores.
        #expect(NSCoreDataVersionNumber >= NSCoreDataVersionNumber_iPhoneOS_9_3)
        #expect(NSCoreDataVersionNumber == 1344)
    }

    @Test func theConnectionPoolAndForceDestroyOptionsAreAccepted() throws {
        let directory = try CtxTemporaryDirectory()
        let url = directory.url.appendingPathComponent("Pool.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: CtxGraphModel.make())
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url, options: [NSPersistentStoreConnectionPoolMaxSizeKey: 4])
        let context = NSManagedObjectContext(.privateQueue)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            ctxInsert("Person", into: context, ["name": "Ann"])
            try context.save()
        }
        #expect(store.options?[NSPersistentStoreConnectionPoolMaxSizeKey] as? Int == 4)
        try coordinator.destroyPersistentStore(at: url, type: .sqlite, options: [NSPersistentStoreForceDestroyOption: true])
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(coordinator.persistentStores.isEmpty)
    }
}
