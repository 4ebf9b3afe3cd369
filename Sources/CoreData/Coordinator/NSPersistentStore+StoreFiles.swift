// The class methods through which a store class reads and writes the metadata of its files.
extension NSPersistentStore {
    /// Returns the metadata of the store file at a location, read by this store class without
    /// opening the store.
    ///
    /// Call it on the class of a store, `type(of: store).metadataForPersistentStore(with: url)`.
    ///
    /// - Throws: `NSFileReadNoSuchFileError` (260) when there is no file at `url`;
    ///   `NSPersistentStoreOpenError` (134080) for a file that is not a store of this class;
    ///   `NSPersistentStoreInvalidTypeError` (134000) for a class whose stores keep no file
    ///   (`NSPersistentStore` itself and the in-memory store).
    public class func metadataForPersistentStore(with url: URL) throws -> [String: Any] {
        try fileAccess(for: url).readMetadata(at: url)
    }

    /// Writes metadata into the store file at a location, which no coordinator has open; the
    /// keys of `metadata` replace those of the file.
    ///
    /// - Throws: The errors of `metadataForPersistentStore(with:)`, or an error writing the file.
    public class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreAt url: URL) throws {
        try fileAccess(for: url).writeMetadata(metadata ?? [:], at: url)
    }

    private class func fileAccess(for url: URL) throws -> any StoreFileMetadataAccess.Type {
        guard let access = self as? any StoreFileMetadataAccess.Type else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "Stores of class \(self) keep no metadata in a file.", userInfo: [NSURLErrorKey: url])
        }
        return access
    }
}

/// A store class whose stores keep their metadata in a file that can be read and written
/// without opening the store.
protocol StoreFileMetadataAccess: NSPersistentStore {
    static func readMetadata(at url: URL) throws -> [String: Any]
    static func writeMetadata(_ metadata: [String: Any], at url: URL) throws
}
