/// A persistent store: a file or memory region holding the rows of some entities.
///
/// Stores are created by a persistent store coordinator (`addPersistentStore`), which serializes
/// every access to them. `NSSQLiteStoreType` and `NSInMemoryStoreType` are built in.
// Stores are only used under their coordinator's lock, which serializes all access.
open class NSPersistentStore: NSObject, @unchecked Sendable {
    /// The store's coordinator.
    public internal(set) weak var persistentStoreCoordinator: NSPersistentStoreCoordinator?

    /// The configuration whose entities the store holds; "PF_DEFAULT_CONFIGURATION_NAME" for all.
    public let configurationName: String

    /// The options the store was added with.
    public let options: [AnyHashable: Any]?

    /// The location of the store.
    open var url: URL?

    /// The store's unique identifier (its UUID, recorded in its metadata).
    open var identifier: String! {
        didSet { identityNumber = StoreIdentityRegistry.shared.number(for: identifier) }
    }

    /// A small number standing for `identifier` in object IDs (see `StoreIdentityRegistry`).
    private(set) var identityNumber: UInt32 = 0
    /// A small number standing for this store object in object IDs (see `StoreIdentityRegistry`).
    let storeNumber = StoreIdentityRegistry.shared.newStoreNumber()

    /// Whether the store refuses writes.
    open var isReadOnly: Bool

    /// The store's metadata: its type, UUID, model version hashes, and application keys.
    open var metadata: [String: Any]! {
        get { storedMetadata }
        set { storedMetadata = newValue ?? [:]; metadataChanged = true }
    }

    package var storedMetadata: [String: Any] = [:]
    /// The rows each committed save changed, which tells faults their snapshots are stale.
    package let rowChanges = RowChangeLog()
    package var metadataChanged = false

    /// Creates a store for a coordinator, a configuration and a location.
    ///
    /// The coordinator makes the stores of a registered type through this initializer, so a
    /// subclass that needs setting up overrides it. It is `required` here because Swift cannot
    /// look an initializer up at run time as Objective-C does.
    public required init(persistentStoreCoordinator root: NSPersistentStoreCoordinator?, configurationName name: String?, at url: URL, options: [AnyHashable: Any]? = nil) {
        self.persistentStoreCoordinator = root
        self.configurationName = name ?? NSManagedObjectModel.defaultConfigurationName
        self.url = url
        self.options = options
        self.isReadOnly = Self.isSet(NSReadOnlyPersistentStoreOption, in: options)
        super.init()
        StoreIdentityRegistry.shared.register(self)
    }

    deinit {
        StoreIdentityRegistry.shared.unregisterStore(numbered: storeNumber)
    }

    /// Whether a Boolean option of the store is on.
    package func isOptionSet(_ option: String) -> Bool {
        Self.isSet(option, in: options)
    }

    /// Whether a Boolean option is on, given as a `Bool` or an `NSNumber`.
    private static func isSet(_ option: String, in options: [AnyHashable: Any]?) -> Bool {
        (options?[option] as? Bool) ?? (options?[option] as? NSNumber)?.boolValue ?? false
    }

    /// The store type, such as `NSSQLiteStoreType`.
    open var type: String {
        ""
    }

    /// Reads the store's metadata.
    open func loadMetadata() throws {}

    /// Called after the store is added to a coordinator.
    open func didAdd(to coordinator: NSPersistentStoreCoordinator) {}

    /// Called before the store is removed from its coordinator.
    open func willRemove(from coordinator: NSPersistentStoreCoordinator?) {}

    // MARK: Store files

    /// Returns the metadata of the store file at a location, read by this store class without
    /// opening the store.
    ///
    /// Call it on the class of a store, `type(of: store).metadataForPersistentStore(with: url)`.
    /// Subclasses whose stores keep a file override it.
    ///
    /// - Throws: `NSFileReadNoSuchFileError` (260) when there is no file at `url`;
    ///   `NSPersistentStoreOpenError` (134080) for a file that is not a store of this class;
    ///   `NSPersistentStoreInvalidTypeError` (134000) for a class whose stores keep no file
    ///   (`NSPersistentStore` itself and the in-memory store).
    open class func metadataForPersistentStore(with url: URL) throws -> [String: Any] {
        throw keepsNoFileError(url)
    }

    /// Writes metadata into the store file at a location, which no coordinator has open; the
    /// keys of `metadata` replace those of the file. Subclasses whose stores keep a file override it.
    ///
    /// - Throws: The errors of `metadataForPersistentStore(with:)`, or an error writing the file.
    open class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreAt url: URL) throws {
        throw keepsNoFileError(url)
    }

    private class func keepsNoFileError(_ url: URL) -> NSError {
        CoreDataError.make(NSPersistentStoreInvalidTypeError, "Stores of class \(self) keep no metadata in a file.", userInfo: [NSURLErrorKey: url])
    }

    /// The location a store of this class is made at, given the URL a program passed to
    /// `addPersistentStore`: a store that needs no file takes a placeholder for none.
    class func location(for url: URL?) throws -> URL {
        url ?? URL(string: "memory://")!
    }

    /// Deletes the store at a location (`destroyPersistentStore(at:type:options:)`): its file,
    /// for a store class that keeps one. A folder there is left alone.
    class func destroyStore(at url: URL) throws {
        var isFolder: ObjCBool = false
        guard url.isFileURL, FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { return }
        try FileManager.default.removeItem(at: url)
    }

    /// Returns the class of the migration manager that migrates stores of this class:
    /// `NSMigrationManager` for every built-in store.
    open class func migrationManagerClass() -> AnyClass {
        NSMigrationManager.self
    }

    /// A permanent object ID of this store.
    package func objectID(for entity: NSEntityDescription, primaryKey: Int64) -> NSManagedObjectID {
        NSManagedObjectID(entity: entity, primaryKey: primaryKey, store: self)
    }

    open override var description: String {
        "<\(Swift.type(of: self))> (URL: \(url?.absoluteString ?? "nil"))"
    }
}

extension NSPersistentStore {
    /// The type of a persistent store, in the form Apple added in iOS 15.
    public struct StoreType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }

        /// The SQLite store.
        public static let sqlite = StoreType(rawValue: NSSQLiteStoreType)
        /// The in-memory store.
        public static let inMemory = StoreType(rawValue: NSInMemoryStoreType)
        /// The binary atomic store.
        public static let binary = StoreType(rawValue: NSBinaryStoreType)
        /// The XML atomic store.
        public static let xml = StoreType(rawValue: NSXMLStoreType)
    }
}
