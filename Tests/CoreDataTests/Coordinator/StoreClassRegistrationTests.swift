import CoreData
import Synchronization
import Testing

/// Store classes registered by type name (`registerStoreClass(_:type:)`,
/// `registerStoreClass(_:forStoreType:)`, `registeredStoreTypes`): the coordinator makes a store
/// of a registered type through the class's required initializer. Every test registers its own
/// type name, since the table is shared by the whole process.
@Suite struct StoreClassRegistrationTests {
    /// A store class that records how the coordinator made it, and that no coordinator can use
    /// (it implements no store operations, as a direct `NSPersistentStore` subclass cannot).
    final class RecordingStore: NSPersistentStore, @unchecked Sendable {
        static let made = Mutex<[(configuration: String, url: URL?, options: [String])]>([])

        required init(persistentStoreCoordinator root: NSPersistentStoreCoordinator?, configurationName name: String?, at url: URL, options: [AnyHashable: Any]? = nil) {
            super.init(persistentStoreCoordinator: root, configurationName: name, at: url, options: options)
            let keys = (options ?? [:]).keys.compactMap { $0 as? String }.sorted()
            Self.made.withLock { $0.append((configurationName, url, keys)) }
        }
    }

    private func uniqueType() -> String {
        "Test-\(UUID().uuidString)"
    }

    private func sqliteStoreClass() throws -> AnyClass {
        let stack = try CtxStack(model: CtxGraphModel.make())
        return type(of: stack.store)
    }

    @Test func theBuiltInTypesAreRegistered() {
        let types = NSPersistentStoreCoordinator.registeredStoreTypes
        #expect(types[NSSQLiteStoreType] != nil)
        #expect(types[NSInMemoryStoreType] != nil)
    }

    @Test func aRegisteredValueGivesTheClassBack() throws {
        let type = uniqueType()
        NSPersistentStoreCoordinator.registerStoreClass(RecordingStore.self, forStoreType: type)
        let value = try #require(NSPersistentStoreCoordinator.registeredStoreTypes[type] as? NSNumber)
        #expect(ObjectIdentifier(unsafeBitCast(Int(truncating: value), to: AnyClass.self)) == ObjectIdentifier(RecordingStore.self))
    }

    @Test func aBuiltInClassRegisteredUnderAnotherNameOpensTheSameFile() throws {
        let type = uniqueType()
        NSPersistentStoreCoordinator.registerStoreClass(try sqliteStoreClass(), type: NSPersistentStore.StoreType(rawValue: type))
        let directory = try CtxTemporaryDirectory()
        let url = directory.url.appendingPathComponent("Named.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: CtxGraphModel.make())
        try coordinator.addPersistentStore(ofType: type, configurationName: nil, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            ctxInsert("Person", into: context, ["name": "Ann"])
            try context.save()
        }
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: type, at: url)
        #expect(metadata[NSStoreTypeKey] as? String == NSSQLiteStoreType)
        #expect(FileManager.default.fileExists(atPath: url.path))
        try coordinator.destroyPersistentStore(at: url, ofType: type, options: nil)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func theCoordinatorMakesARegisteredStoreThroughItsRequiredInitializer() throws {
        let type = uniqueType()
        NSPersistentStoreCoordinator.registerStoreClass(RecordingStore.self, type: NSPersistentStore.StoreType(rawValue: type))
        let url = URL(fileURLWithPath: "/tmp/\(type).store")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: CtxGraphModel.make())
        let error = try #require(throws: NSError.self) {
            try coordinator.addPersistentStore(ofType: type, configurationName: nil, at: url, options: ["Marker": true])
        }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(coordinator.persistentStores.isEmpty)
        let made = RecordingStore.made.withLock { $0.last { $0.url == url } }
        #expect(made?.configuration == "PF_DEFAULT_CONFIGURATION_NAME")
        #expect(made?.options == ["Marker"])
    }

    @Test func unregisteredUnknownAndNonStoreTypesAreRefusedWith134000() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: CtxGraphModel.make())
        let url = URL(fileURLWithPath: "/tmp/unused.store")

        let unregistered = uniqueType()
        NSPersistentStoreCoordinator.registerStoreClass(RecordingStore.self, forStoreType: unregistered)
        NSPersistentStoreCoordinator.registerStoreClass(nil, forStoreType: unregistered)
        #expect(NSPersistentStoreCoordinator.registeredStoreTypes[unregistered] == nil)

        let notAStore = uniqueType()
        NSPersistentStoreCoordinator.registerStoreClass(NSObject.self, forStoreType: notAStore)

        for type in [unregistered, "NoSuchType", notAStore] {
            let error = try #require(throws: NSError.self) {
                try coordinator.addPersistentStore(ofType: type, configurationName: nil, at: url, options: nil)
            }
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.code == NSPersistentStoreInvalidTypeError)
        }
        let metadataError = try #require(throws: NSError.self) {
            try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: "NoSuchType", at: url)
        }
        #expect(metadataError.code == NSPersistentStoreInvalidTypeError)
    }

    /// Destroying a store of a class without files of its own removes the file at its URL, and
    /// leaves a folder there alone.
    @Test func destroyingAStoreOfARegisteredClassRemovesItsFileButNoFolder() throws {
        let type = uniqueType()
        NSPersistentStoreCoordinator.registerStoreClass(RecordingStore.self, forStoreType: type)
        let directory = try CtxTemporaryDirectory()
        let file = directory.url.appendingPathComponent("store.data")
        try Data("x".utf8).write(to: file)
        let folder = directory.url.appendingPathComponent("folder", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: CtxGraphModel.make())
        try coordinator.destroyPersistentStore(at: file, ofType: type, options: nil)
        try coordinator.destroyPersistentStore(at: folder, ofType: type, options: nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(FileManager.default.fileExists(atPath: folder.path))
    }
}
