import CoreData
import Testing

/// A store of a class a test registers, over a file of the given contents in a scratch directory
/// (kept while the shelf lives), serving `BookshelfStore.model()`, with a context on its coordinator.
struct CustomStoreShelf {
    let context: NSManagedObjectContext
    let store: NSPersistentStore
    let directory: CtxTemporaryDirectory

    init(_ storeClass: AnyClass, type: NSPersistentStore.StoreType, file: String, contents: String) throws {
        NSPersistentStoreCoordinator.registerStoreClass(storeClass, type: type)
        directory = try CtxTemporaryDirectory()
        let url = directory.url.appendingPathComponent(file)
        try Data(contents.utf8).write(to: url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: BookshelfStore.model())
        store = try coordinator.addPersistentStore(type: type, at: url)
        context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
    }

    /// Expects that adding a store of the class over a file of `contents` fails, adds nothing
    /// and leaves the file as it was.
    static func expectRefusal(_ storeClass: AnyClass, type: NSPersistentStore.StoreType, contents: String) throws {
        NSPersistentStoreCoordinator.registerStoreClass(storeClass, type: type)
        let directory = try CtxTemporaryDirectory()
        let url = directory.url.appendingPathComponent("damaged")
        try Data(contents.utf8).write(to: url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: BookshelfStore.model())
        #expect(throws: (any Error).self) { try coordinator.addPersistentStore(type: type, at: url) }
        #expect(coordinator.persistentStores.isEmpty)
        #expect(try Data(contentsOf: url) == Data(contents.utf8))
    }
}
