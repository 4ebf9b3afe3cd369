/// The built-in store types and the operations on store files that need no coordinator.
enum StoreRegistry {
    /// A new, not yet loaded store of a type.
    static func makeStore(type: String, coordinator: NSPersistentStoreCoordinator, configuration: String?, url: URL?, options: [AnyHashable: Any]?) throws -> NSPersistentStore {
        switch type {
        case NSSQLiteStoreType:
            guard let url else {
                throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "A SQLite store needs a file URL.")
            }
            guard url.isFileURL else {
                throw CoreDataError.storeOpen(url, "a SQLite store needs a file URL.")
            }
            return SQLiteStore(persistentStoreCoordinator: coordinator, configurationName: configuration, at: url, options: options)
        case NSInMemoryStoreType:
            return InMemoryStore(persistentStoreCoordinator: coordinator, configurationName: configuration, at: url ?? URL(string: "memory://")!, options: options)
        default:
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "Unknown store type '\(type)'. Supported types: \(NSSQLiteStoreType), \(NSInMemoryStoreType).")
        }
    }

    static func metadata(type: String, at url: URL) throws -> [String: Any] {
        guard type == NSSQLiteStoreType else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "Stores of type '\(type)' have no metadata file.")
        }
        return try SQLiteStore.readMetadata(at: url)
    }

    static func setMetadata(_ metadata: [String: Any], type: String, at url: URL) throws {
        guard type == NSSQLiteStoreType else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "Stores of type '\(type)' have no metadata file.")
        }
        try SQLiteStore.writeMetadata(metadata, at: url)
    }

    static func destroy(type: String, at url: URL) throws {
        switch type {
        case NSSQLiteStoreType: try SQLiteStore.destroyFiles(at: url)
        case NSInMemoryStoreType: return
        default: throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "Unknown store type '\(type)'.")
        }
    }
}
