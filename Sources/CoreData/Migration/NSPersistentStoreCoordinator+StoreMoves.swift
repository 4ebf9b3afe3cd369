// Moving a store to another location or type, and replacing a store file with another.
extension NSPersistentStoreCoordinator {
    /// Copies a store's objects into a new store at another location, possibly of another type,
    /// and puts the new store in the coordinator in place of the old one.
    ///
    /// The copies get new object IDs; relationships and their order are kept. The old store's
    /// file is left as it was. If anything fails, the old store stays in the coordinator and the
    /// new store's files are removed.
    ///
    /// - Parameters:
    ///   - store: A store of this coordinator.
    ///   - URL: Where the new store goes; nothing may exist there yet.
    ///   - options: The options of the new store.
    ///   - storeType: The type of the new store, such as `NSSQLiteStoreType` or `NSInMemoryStoreType`.
    /// - Returns: The new store.
    /// - Throws: `NSPersistentStoreOperationError` (134070) when the store is not in this
    ///   coordinator or a store already exists at `URL`; any error adding or saving the new store.
    @available(*, deprecated, renamed: "migratePersistentStore(_:to:options:type:)")
    open func migratePersistentStore(_ store: NSPersistentStore, to URL: URL, options: [AnyHashable: Any]? = nil, withType storeType: String) throws -> NSPersistentStore {
        try moveStore(store, to: URL, options: options, type: storeType)
    }

    /// Copies a store's objects into a new store at another location, possibly of another type,
    /// and puts the new store in the coordinator in place of the old one.
    ///
    /// See `migratePersistentStore(_:to:options:withType:)`.
    open func migratePersistentStore(_ store: NSPersistentStore, to storeURL: URL, options: [AnyHashable: Any]? = nil, type storeType: NSPersistentStore.StoreType) throws -> NSPersistentStore {
        try moveStore(store, to: storeURL, options: options, type: storeType.rawValue)
    }

    private func moveStore(_ store: NSPersistentStore, to url: URL, options: [AnyHashable: Any]?, type: String) throws -> NSPersistentStore {
        guard persistentStores.contains(where: { $0 === store }) else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "The store to migrate is not in this coordinator.")
        }
        if type != NSInMemoryStoreType, SQLiteStore.fileHasContent(url) {
            throw CoreDataError.make(NSPersistentStoreOperationError, "A store already exists at \(url.path); it is not replaced.", userInfo: [NSURLErrorKey: url])
        }
        let configuration = store.configurationName == NSManagedObjectModel.defaultConfigurationName ? nil : store.configurationName
        let staging = NSPersistentStoreCoordinator(managedObjectModel: managedObjectModel)
        do {
            let copy = try staging.addPersistentStore(ofType: type, configurationName: configuration, at: url, options: options)
            try StoreCopy(source: store, sourceCoordinator: self, destinationCoordinator: staging).run()
            guard type != NSInMemoryStoreType else {
                try staging.remove(copy)
                return try adoptMemoryStore(copy, replacing: store)
            }
            try staging.remove(copy)
        } catch {
            if type != NSInMemoryStoreType { try? StoreRegistry.destroy(type: type, at: url) }
            throw error
        }
        let moved = try addPersistentStore(ofType: type, configurationName: configuration, at: url, options: options)
        try remove(store)
        return moved
    }

    /// Puts an in-memory copy in this coordinator in place of `store` (an in-memory store's data
    /// lives in the store object, so the copy itself moves rather than being reopened).
    private func adoptMemoryStore(_ copy: NSPersistentStore, replacing store: NSPersistentStore) throws -> NSPersistentStore {
        adopt(copy)
        try remove(store)
        return copy
    }

    /// Replaces the store file at one location with a copy of the store at another.
    ///
    /// The copy is a consistent snapshot of the source store, written next to the destination and
    /// moved into place, so the destination is either the old store or the complete copy. The
    /// copy keeps the source's metadata and UUID. A store at the destination must not be open in
    /// this coordinator.
    ///
    /// - Throws: `NSPersistentStoreOperationError` (134070) for an open destination or a type
    ///   without files; 134080 when the source is not a store.
    open func replacePersistentStore(at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil, withPersistentStoreFrom sourceURL: URL, sourceOptions: [AnyHashable: Any]? = nil, type sourceType: NSPersistentStore.StoreType) throws {
        try replaceStore(at: destinationURL, from: sourceURL, type: sourceType.rawValue)
    }

    /// Replaces the store file at one location with a copy of the store at another.
    ///
    /// See `replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:type:)`.
    @available(*, deprecated, renamed: "replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:type:)")
    open func replacePersistentStore(at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil, withPersistentStoreFrom sourceURL: URL, sourceOptions: [AnyHashable: Any]? = nil, ofType storeType: String) throws {
        try replaceStore(at: destinationURL, from: sourceURL, type: storeType)
    }

    private func replaceStore(at destination: URL, from source: URL, type: String) throws {
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
