import CoreData
import Testing

/// A store of a class a test registers, over a file of the given contents in a scratch directory
/// (kept while the shelf lives), serving `BookshelfStore.model()`, with a context on its coordinator.
struct CustomStoreShelf {
    /// The two kinds of store a program subclasses, each with a test store over the same sample.
    enum Kind: String, CaseIterable {
        case incremental, atomic

        /// A store of this kind over its sample shelf, serving `model`.
        func shelf(model: NSManagedObjectModel = BookshelfStore.model()) throws -> CustomStoreShelf {
            switch self {
            case .incremental: try CustomStoreShelf(BookshelfStore.self, type: storeType, file: "shelf.json", contents: BookshelfStore.sampleShelf, model: model)
            case .atomic: try CustomStoreShelf(ShelfFileStore.self, type: storeType, file: "shelf.txt", contents: ShelfFileStore.sampleShelf, model: model)
            }
        }

        /// The type its test store is registered for.
        var storeType: NSPersistentStore.StoreType {
            switch self {
            case .incremental: BookshelfStore.storeType
            case .atomic: ShelfFileStore.storeType
            }
        }

        /// Expects a file the test store cannot read to be refused.
        func expectRefusalOfDamagedFile() throws {
            switch self {
            case .incremental: try CustomStoreShelf.expectRefusal(BookshelfStore.self, type: BookshelfStore.storeType, contents: "not json")
            case .atomic: try CustomStoreShelf.expectRefusal(ShelfFileStore.self, type: ShelfFileStore.storeType, contents: "book|x")
            }
        }
    }

    let context: NSManagedObjectContext
    let store: NSPersistentStore
    let directory: CtxTemporaryDirectory

    init(_ storeClass: AnyClass, type: NSPersistentStore.StoreType, file: String, contents: String, model: NSManagedObjectModel) throws {
        NSPersistentStoreCoordinator.registerStoreClass(storeClass, type: type)
        let directory = try CtxTemporaryDirectory()
        let url = directory.url.appendingPathComponent(file)
        try Data(contents.utf8).write(to: url)
        try self.init(type: type, at: url, in: directory, model: model)
    }

    private init(type: NSPersistentStore.StoreType, at url: URL, in directory: CtxTemporaryDirectory, model: NSManagedObjectModel) throws {
        self.directory = directory
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        store = try coordinator.addPersistentStore(type: type, at: url)
        context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
    }

    /// The same file opened by a new coordinator, to check what a save wrote.
    func reopened() throws -> CustomStoreShelf {
        let model = try #require(context.persistentStoreCoordinator?.managedObjectModel)
        return try CustomStoreShelf(type: NSPersistentStore.StoreType(rawValue: store.type), at: try #require(store.url), in: directory, model: model)
    }

    /// Expects that adding a store of the class over a file of `contents` fails, adds nothing
    /// and leaves the file as it was.
    private static func expectRefusal(_ storeClass: AnyClass, type: NSPersistentStore.StoreType, contents: String) throws {
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
