// Store metadata read and written without a coordinator, in the `NSPersistentStore.StoreType`
// form Apple added in iOS 15.
extension NSPersistentStoreCoordinator {
    /// Returns the metadata of the store of a type at a location, without adding the store to a
    /// coordinator or changing its file.
    ///
    /// - Parameters:
    ///   - storeType: The type of the store, such as `.sqlite`.
    ///   - storeURL: The location of the store's file.
    ///   - options: Options for reading the store; none is needed by the built-in types.
    /// - Returns: The store's metadata: its type, UUID, model version hashes and the keys the
    ///   program added.
    /// - Throws: `NSFileReadNoSuchFileError` (260) when there is no file at `storeURL`;
    ///   `NSPersistentStoreOpenError` (134080) for a file that is not a store of that type;
    ///   `NSPersistentStoreInvalidTypeError` (134000) for a type that keeps no file.
    public class func metadataForPersistentStore(type storeType: NSPersistentStore.StoreType, at storeURL: URL, options: [AnyHashable: Any]? = nil) throws -> [String: Any] {
        try metadataForPersistentStore(ofType: storeType.rawValue, at: storeURL, options: options)
    }

    /// Writes metadata into the file of a store that no coordinator has open.
    ///
    /// The keys of `metadata` replace those of the file's metadata; the store's own keys (its
    /// type, UUID and version hashes) stay unless `metadata` gives them.
    ///
    /// - Parameters:
    ///   - metadata: The keys to write; nil writes none.
    ///   - storeType: The type of the store, such as `.sqlite`.
    ///   - storeURL: The location of the store's file.
    ///   - options: Options for opening the store; none is needed by the built-in types.
    /// - Throws: The errors of `metadataForPersistentStore(type:at:options:)`, or an error
    ///   writing the file.
    public class func setMetadata(_ metadata: [String: Any]?, type storeType: NSPersistentStore.StoreType, at storeURL: URL, options: [AnyHashable: Any]? = nil) throws {
        try setMetadata(metadata ?? [:], forPersistentStoreOfType: storeType.rawValue, at: storeURL, options: options)
    }
}
