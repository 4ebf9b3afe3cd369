// Moving a store to another location or type, and replacing a store file with another (the
// `open` entry points are declared in the class body, so that subclasses can override them).
extension NSPersistentStoreCoordinator {
    func moveStore(_ store: NSPersistentStore, to url: URL, options: [AnyHashable: Any]?, type: String) throws -> NSPersistentStore {
        guard persistentStores.contains(where: { $0 === store }) else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "The store to migrate is not in this coordinator.")
        }
        if type != NSInMemoryStoreType, SQLiteStore.fileHasContent(url) {
            throw CoreDataError.make(NSPersistentStoreOperationError, "A store already exists at \(url.path); it is not replaced.", userInfo: [NSURLErrorKey: url])
        }
        let configuration = store.modelConfiguration
        let staging = NSPersistentStoreCoordinator(managedObjectModel: managedObjectModel)
        let copy: NSPersistentStore
        do {
            copy = try staging.addPersistentStore(ofType: type, configurationName: configuration, at: url, options: options)
            try StoreCopy(source: store, sourceCoordinator: self, destinationCoordinator: staging).run()
            try staging.remove(copy)
        } catch {
            if type != NSInMemoryStoreType { try? StoreRegistry.destroy(type: type, at: url, options: options) }
            throw error
        }
        let moved: NSPersistentStore
        if type == NSInMemoryStoreType {
            // An in-memory store's data lives in the store object, so the copy itself moves here.
            adopt(copy)
            moved = copy
        } else {
            moved = try addPersistentStore(ofType: type, configurationName: configuration, at: url, options: options)
        }
        try remove(store)
        return moved
    }

    func replaceStore(at destination: URL, options destinationOptions: [AnyHashable: Any]?, from source: URL, options sourceOptions: [AnyHashable: Any]?, type: String) throws {
        if let located = (try? StoreRegistry.storeClass(for: type)) as? StoreLocatedByOptions.Type {
            return try located.replaceStore(at: destination, options: destinationOptions, withCopyOf: source, options: sourceOptions)
        }
        guard type == NSSQLiteStoreType else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "Stores of type '\(type)' have no files to replace.")
        }
        guard persistentStore(for: destination) == nil else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "The store at \(destination.path) is open in this coordinator; remove it before replacing it.", userInfo: [NSURLErrorKey: destination])
        }
        guard source.standardizedFileURL != destination.standardizedFileURL else { return }
        try SQLiteStore.replaceFiles(at: destination, withCopyOf: source)
    }
}
