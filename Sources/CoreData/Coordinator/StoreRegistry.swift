import Synchronization

/// The store classes coordinators make stores of, by type name: the built-in ones and those a
/// program registers (`NSPersistentStoreCoordinator.registerStoreClass(_:type:)`).
enum StoreRegistry {
    // The built-in classes are the table's first entries, as Apple's coordinator knows its own.
    private static let classes = Mutex<[String: AnyClass]>([
        NSSQLiteStoreType: SQLiteStore.self,
        NSInMemoryStoreType: InMemoryStore.self,
        NSBinaryStoreType: BinaryStore.self,
        NSXMLStoreType: XMLStore.self,
    ])

    /// Registers `storeClass` for `type`, replacing any class registered for it; nil unregisters.
    static func register(_ storeClass: AnyClass?, for type: String) {
        classes.withLock { $0[type] = storeClass }
    }

    /// The registered classes by type name.
    static var registeredClasses: [String: AnyClass] {
        classes.withLock { $0 }
    }

    /// The store class registered for a type.
    ///
    /// - Throws: `NSPersistentStoreInvalidTypeError` (134000) for a type nothing is registered
    ///   for, or whose class is not a store class.
    static func storeClass(for type: String) throws -> NSPersistentStore.Type {
        let registered = registeredClasses
        guard let storeClass = registered[type] else {
            let known = registered.keys.sorted().joined(separator: ", ")
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "Unknown store type '\(type)'. Registered types: \(known).")
        }
        guard let persistentStoreClass = storeClass as? NSPersistentStore.Type else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "The class \(storeClass) registered for store type '\(type)' is not a subclass of NSPersistentStore.")
        }
        return persistentStoreClass
    }

    /// A new, not yet loaded store of a type, made through its class's required initializer.
    static func makeStore(type: String, coordinator: NSPersistentStoreCoordinator, configuration: String?, url: URL?, options: [AnyHashable: Any]?) throws -> NSPersistentStore {
        let storeClass = try storeClass(for: type)
        let location = try storeClass.location(for: url)
        return storeClass.init(persistentStoreCoordinator: coordinator, configurationName: configuration, at: location, options: options)
    }

    static func metadata(type: String, at url: URL, options: [AnyHashable: Any]?) throws -> [String: Any] {
        let storeClass = try storeClass(for: type)
        if let located = storeClass as? StoreLocatedByOptions.Type { return try located.metadata(at: url, options: options) }
        return try storeClass.metadataForPersistentStore(with: url)
    }

    static func setMetadata(_ metadata: [String: Any], type: String, at url: URL, options: [AnyHashable: Any]?) throws {
        let storeClass = try storeClass(for: type)
        if let located = storeClass as? StoreLocatedByOptions.Type { return try located.setMetadata(metadata, at: url, options: options) }
        try storeClass.setMetadata(metadata, forPersistentStoreAt: url)
    }

    static func destroy(type: String, at url: URL, options: [AnyHashable: Any]?) throws {
        let storeClass = try storeClass(for: type)
        if let located = storeClass as? StoreLocatedByOptions.Type { return try located.destroyStore(at: url, options: options) }
        try storeClass.destroyStore(at: url)
    }

    /// Whether there is a store of a type at a location: its file, or for a store class that
    /// options locate, a store whose metadata it reads.
    static func hasStore(type: String, at url: URL, options: [AnyHashable: Any]?) -> Bool {
        if let located = (try? storeClass(for: type)) as? StoreLocatedByOptions.Type {
            return (try? located.metadata(at: url, options: options)) != nil
        }
        return FileManager.default.fileExists(atPath: url.path)
    }
}
