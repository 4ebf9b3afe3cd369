/// A store class whose stores a URL alone does not locate (a store in one schema of a database
/// server's database): it reads and destroys a store given the options it is added with too.
package protocol StoreLocatedByOptions: NSPersistentStore {
    /// The metadata of the store at `url` that `options` name.
    static func metadata(at url: URL, options: [AnyHashable: Any]?) throws -> [String: Any]

    /// Writes metadata into the store at `url` that `options` name, which no coordinator has open;
    /// the keys of `metadata` replace the store's.
    static func setMetadata(_ metadata: [String: Any], at url: URL, options: [AnyHashable: Any]?) throws

    /// Deletes the store at `url` that `options` name (`destroyPersistentStore(at:type:options:)`).
    static func destroyStore(at url: URL, options: [AnyHashable: Any]?) throws

    /// Replaces the store at `destination` that `destinationOptions` name with a copy of the
    /// store at `source` that `sourceOptions` name
    /// (`replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:type:)`).
    static func replaceStore(at destination: URL, options destinationOptions: [AnyHashable: Any]?, withCopyOf source: URL, options sourceOptions: [AnyHashable: Any]?) throws
}
