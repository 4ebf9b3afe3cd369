/// The lightweight migration of an atomic store's file (binary, XML, or a registered
/// `NSAtomicStore` subclass): the objects are migrated by a migration manager into a new file
/// beside the old one, which then replaces it in one rename, so a failure or a crash leaves the
/// old file as it was. The new file keeps the store's UUID and the metadata the program set.
struct AtomicStoreMigration {
    let store: NSPersistentStore
    let url: URL
    let metadata: [String: Any]
    let sourceModel: NSManagedObjectModel
    let destinationModel: NSManagedObjectModel
    let mapping: NSMappingModel

    func run() throws {
        let staged = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).migrating-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: staged) }
        let manager = NSMigrationManager(sourceModel: sourceModel, destinationModel: destinationModel)
        try manager.migrateStore(from: url, sourceType: store.type, options: nil, with: mapping, toDestinationURL: staged, destinationType: store.type, destinationOptions: nil)
        let storeClass = type(of: store)
        try storeClass.setMetadata(carriedOverMetadata(into: try storeClass.metadataForPersistentStore(with: staged)), forPersistentStoreAt: staged)
        guard rename(staged.path, url.path) == 0 else {
            throw CoreDataError.make(
                NSPersistentStoreOperationError,
                "The migrated store could not replace the store at \(url.path): \(String(cString: strerror(errno)))",
                userInfo: [NSURLErrorKey: url]
            )
        }
    }

    /// The new file's metadata with the old file's UUID and the keys the program added (all
    /// but those that record the source model).
    private func carriedOverMetadata(into migrated: [String: Any]) -> [String: Any] {
        let sourceModelKeys = StoreMetadata.modelKeys(for: sourceModel.entities, model: sourceModel).keys
        var carried = migrated
        for (key, value) in metadata where key == NSStoreUUIDKey || (carried[key] == nil && !sourceModelKeys.contains(key)) {
            carried[key] = value
        }
        return carried
    }
}
