import Synchronization

/// The link between managed object contexts and persistent stores: it owns the model, routes
/// requests to the stores that hold each entity, and serializes access to them.
///
/// A coordinator may have several stores; an entity lives in the first store whose configuration
/// contains it, and fetches span every store that holds the fetched entities.
// All access to `stores` and to the stores themselves happens under `storeLock`.
open class NSPersistentStoreCoordinator: NSObject, @unchecked Sendable {
    /// The coordinator's model, frozen (immutable) from the moment the coordinator exists.
    public let managedObjectModel: NSManagedObjectModel

    /// A name for debugging.
    open var name: String?

    /// Serializes access to the stores; `lock()` and `unlock()` take it too.
    let storeLock = NSRecursiveLock()
    private var stores: [NSPersistentStore] = []
    /// The rows its contexts' faults loaded and their saves committed.
    let rowCache = RowCache()
    /// Whether a save has updated or deleted rows of its stores: until one has, no row a
    /// context holds can be stale by another save, and faults need not ask their stores.
    let hasChangedRows = Atomic<Bool>(false)
    /// The context whose request the stores are answering, while they answer it: an incremental
    /// store hands it to its subclass's methods. Read and written under `storeLock`.
    var requestingContext: NSManagedObjectContext?

    /// Runs `body`, under the store lock, with `context` as the requesting context.
    func answering<T>(_ context: NSManagedObjectContext, _ body: () throws -> T) rethrows -> T {
        let outerContext = requestingContext
        requestingContext = context
        defer { requestingContext = outerContext }
        return try body()
    }

    /// Creates a coordinator for a model; the model becomes immutable.
    public init(managedObjectModel model: NSManagedObjectModel) {
        self.managedObjectModel = model
        super.init()
        model.freeze()
    }

    /// The stores, in the order they were added.
    open var persistentStores: [NSPersistentStore] {
        storeLock.withLock { stores }
    }

    // MARK: Adding and removing stores

    /// Opens (or creates) a store and adds it to the coordinator.
    ///
    /// A store written with another version of the model is migrated first when the options set
    /// `NSMigratePersistentStoresAutomaticallyOption`: in place, in one transaction, with the
    /// mapping inferred when `NSInferMappingModelAutomaticallyOption` is set too.
    ///
    /// - Throws: an `NSError` in `NSCocoaErrorDomain`: 134000 for an unknown type, 134080 for a file
    ///   that is not a store or is damaged (the file is left untouched), 134100 when the store was
    ///   written with a different model version and migration is off, 134130 when no model version
    ///   the program has matches the store, 134140 when no mapping can be inferred, 134110 when
    ///   the migration fails (the store is then unchanged).
    @discardableResult
    open func addPersistentStore(ofType storeType: String, configurationName configuration: String?, at storeURL: URL?, options: [AnyHashable: Any]? = nil) throws -> NSPersistentStore {
        if let problem = ModelCheck.problem(in: managedObjectModel) {
            throw CoreDataError.make(NSCoreDataError, "The model cannot be used: \(problem)")
        }
        if let configuration, configuration != NSManagedObjectModel.defaultConfigurationName,
           managedObjectModel.entities(forConfigurationName: configuration) == nil {
            throw CoreDataError.make(NSCoreDataError, "The model has no configuration named '\(configuration)'.")
        }
        let store = try StoreRegistry.makeStore(type: storeType, coordinator: self, configuration: configuration, url: storeURL, options: options)
        try storeLock.withLock {
            if let url = store.url, storeType != NSInMemoryStoreType,
               stores.contains(where: { $0.url?.standardizedFileURL == url.standardizedFileURL }) {
                throw CoreDataError.make(NSPersistentStoreOperationError, "The store at \(url.path) has already been added to this coordinator.")
            }
            try AutomaticMigration.migrateIfNeeded(store, to: managedObjectModel)
            try store.engine().load(model: managedObjectModel)
            try postRemoteChangesIfRequested(for: store)
            stores.append(store)
        }
        store.didAdd(to: self)
        postStoresDidChange(added: [store], removed: [])
        return store
    }

    /// Opens (or creates) a store of a given type and adds it to the coordinator.
    @discardableResult
    open func addPersistentStore(type: NSPersistentStore.StoreType, configuration: String? = nil, at storeURL: URL, options: [AnyHashable: Any]? = nil) throws -> NSPersistentStore {
        try addPersistentStore(ofType: type.rawValue, configurationName: configuration, at: storeURL, options: options)
    }

    /// Adds the store a description describes and reports the outcome to `block`.
    open func addPersistentStore(with storeDescription: NSPersistentStoreDescription, completionHandler block: @escaping (NSPersistentStoreDescription, Error?) -> Void) {
        let add = {
            do {
                try self.addPersistentStore(
                    ofType: storeDescription.type,
                    configurationName: storeDescription.configuration,
                    at: storeDescription.url,
                    options: storeDescription.coordinatorOptions
                )
                block(storeDescription, nil)
            } catch {
                block(storeDescription, error)
            }
        }
        if storeDescription.shouldAddStoreAsynchronously {
            nonisolated(unsafe) let add = add
            DispatchQueue.global().async { add() }
        } else {
            add()
        }
    }

    /// Adds a store that is already loaded: an in-memory store moved here from another
    /// coordinator, whose data lives in the store object.
    func adopt(_ store: NSPersistentStore) {
        storeLock.withLock {
            stores.append(store)
            store.persistentStoreCoordinator = self
        }
        store.didAdd(to: self)
        postStoresDidChange(added: [store], removed: [])
    }

    /// Removes a store from the coordinator and closes it.
    open func remove(_ store: NSPersistentStore) throws {
        if store.persistentStoreCoordinator === self {
            NotificationCenter.default.post(name: .NSPersistentStoreCoordinatorWillRemoveStore, object: self)
        }
        store.willRemove(from: self)
        try storeLock.withLock {
            guard let index = stores.firstIndex(where: { $0 === store }) else {
                throw CoreDataError.make(NSPersistentStoreOperationError, "The store is not in this coordinator.")
            }
            stores.remove(at: index)
            (try? store.engine())?.unload()
            store.persistentStoreCoordinator = nil
        }
        postStoresDidChange(added: [], removed: [store])
    }

    /// The store at a location.
    open func persistentStore(for URL: URL) -> NSPersistentStore? {
        storeLock.withLock { stores.first { $0.url?.standardizedFileURL == URL.standardizedFileURL } }
    }

    /// The location of a store.
    open func url(for store: NSPersistentStore) -> URL {
        store.url ?? URL(fileURLWithPath: "/dev/null")
    }

    // MARK: Metadata

    /// The metadata of a store of this coordinator.
    open func metadata(for store: NSPersistentStore) -> [String: Any] {
        storeLock.withLock { store.metadata }
    }

    /// Replaces the metadata of a store; it is written with the next save.
    open func setMetadata(_ metadata: [String: Any]?, for store: NSPersistentStore) {
        storeLock.withLock { store.metadata = metadata }
    }

    /// Reads the metadata of a store file without opening it for writing or changing it.
    open class func metadataForPersistentStore(ofType storeType: String, at url: URL, options: [AnyHashable: Any]? = nil) throws -> [String: Any] {
        try StoreRegistry.metadata(type: storeType, at: url, options: options)
    }

    /// Writes metadata into a store file that no coordinator has open.
    open class func setMetadata(_ metadata: [String: Any], forPersistentStoreOfType storeType: String, at url: URL, options: [AnyHashable: Any]? = nil) throws {
        try StoreRegistry.setMetadata(metadata, type: storeType, at: url, options: options)
    }

    // MARK: Moving and replacing stores

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

    /// Replaces the store file at one location with a copy of the store at another.
    ///
    /// The copy is a consistent snapshot of the source store, written next to the destination and
    /// renamed over the destination's database file in one step, so that file is never a partial
    /// copy. The destination's write-ahead log is removed first: a destination that is not closed
    /// cleanly loses its unsaved log. The copy keeps the source's metadata and UUID. A store at the
    /// destination must not be open in this coordinator. A store type that options locate (a
    /// PostgreSQL store's schema) replaces the store the destination options name with a copy of
    /// the one the source options name.
    ///
    /// - Throws: `NSPersistentStoreOperationError` (134070) for an open destination or a type
    ///   without files; 134080 when the source is not a store.
    open func replacePersistentStore(at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil, withPersistentStoreFrom sourceURL: URL, sourceOptions: [AnyHashable: Any]? = nil, type sourceType: NSPersistentStore.StoreType) throws {
        try replaceStore(at: destinationURL, options: destinationOptions, from: sourceURL, options: sourceOptions, type: sourceType.rawValue)
    }

    /// Replaces the store file at one location with a copy of the store at another.
    ///
    /// See `replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:type:)`.
    @available(*, deprecated, renamed: "replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:type:)")
    open func replacePersistentStore(at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil, withPersistentStoreFrom sourceURL: URL, sourceOptions: [AnyHashable: Any]? = nil, ofType storeType: String) throws {
        try replaceStore(at: destinationURL, options: destinationOptions, from: sourceURL, options: sourceOptions, type: storeType)
    }

    // MARK: Destroying

    /// Deletes a store's files (the database, its journal files and its external data).
    open func destroyPersistentStore(at url: URL, ofType storeType: String, options: [AnyHashable: Any]? = nil) throws {
        if let store = persistentStore(for: url) {
            try remove(store)
        }
        try StoreRegistry.destroy(type: storeType, at: url, options: options)
    }

    /// Deletes a store's files.
    open func destroyPersistentStore(at url: URL, type: NSPersistentStore.StoreType, options: [AnyHashable: Any]? = nil) throws {
        try destroyPersistentStore(at: url, ofType: type.rawValue, options: options)
    }

    // MARK: Store classes

    /// Registers a store class for a store type, so that adding a store of that type makes an
    /// instance of the class.
    ///
    /// Register a subclass before adding stores of its type. The coordinator makes each store
    /// through the class's `init(persistentStoreCoordinator:configurationName:at:options:)`.
    /// Registering a class for a type that has one replaces it, the built-in types included.
    ///
    /// - Parameters:
    ///   - storeClass: A subclass of `NSPersistentStore`, or nil to unregister the type.
    ///   - type: The store type the class implements.
    open class func registerStoreClass(_ storeClass: AnyClass?, type: NSPersistentStore.StoreType) {
        StoreRegistry.register(storeClass, for: type.rawValue)
    }

    /// Registers a store class for a store type given by its name.
    ///
    /// Apple deprecates this form in favour of ``registerStoreClass(_:type:)``; both register in
    /// the same table.
    ///
    /// - Parameters:
    ///   - storeClass: A subclass of `NSPersistentStore`, or nil to unregister the type.
    ///   - storeType: A name unique to the store type.
    open class func registerStoreClass(_ storeClass: AnyClass?, forStoreType storeType: String) {
        StoreRegistry.register(storeClass, for: storeType)
    }

    /// The registered store types: the store classes by type name, the built-in types included.
    ///
    /// Linux Foundation's `NSValue` cannot hold a class, so each value is an `NSNumber` (an
    /// `NSValue`) whose `intValue` is the address of the class's metadata, which
    /// `unsafeBitCast(number.intValue, to: AnyClass.self)` turns back into the class.
    open class var registeredStoreTypes: [String: NSValue] {
        StoreRegistry.registeredClasses.mapValues { NSNumber(value: unsafeBitCast($0, to: Int.self)) }
    }

    // MARK: Object IDs

    /// The object ID a URI from `uriRepresentation()` names, or nil when no store of this
    /// coordinator has the URI's UUID or the URI is malformed.
    ///
    /// After `p` comes a primary key, or the reference object of a custom store that names its
    /// objects by strings.
    open func managedObjectID(forURIRepresentation url: URL) -> NSManagedObjectID? {
        guard url.scheme == "x-coredata", let host = url.host, !host.isEmpty else { return nil }
        let parts = url.path.split(separator: "/").map(String.init)
        guard parts.count == 2, parts[1].hasPrefix("p"), parts[1].count > 1,
              let entity = managedObjectModel.entitiesByName[parts[0]], !entity.isAbstract,
              let store = persistentStores.first(where: { $0.identifier == host }) else { return nil }
        let key = String(parts[1].dropFirst())
        if let primaryKey = Int64(key), primaryKey > 0 {
            return store.objectID(for: entity, primaryKey: primaryKey)
        }
        return store.hasReferenceObjects ? store.objectID(for: entity, reference: key) : nil
    }

    // MARK: Serialized access

    /// Runs a block synchronously with exclusive access to the coordinator's stores.
    open func performAndWait(_ block: () -> Void) {
        storeLock.withLock(block)
    }

    /// Runs a block asynchronously with exclusive access to the coordinator's stores.
    open func perform(_ block: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async { self.storeLock.withLock(block) }
    }

    /// Runs `body` with exclusive access to the stores.
    func withStores<T>(_ body: ([NSPersistentStore]) throws -> T) rethrows -> T {
        try storeLock.withLock { try body(stores) }
    }

    // MARK: Routing

    /// The store new objects of an entity go to: the first that holds the entity.
    func store(forInserting entity: NSEntityDescription) -> NSPersistentStore? {
        withStores { stores in stores.first { $0.holds(entity, in: managedObjectModel) && !$0.isReadOnly } ?? stores.first { $0.holds(entity, in: managedObjectModel) } }
    }

    /// The stores holding rows of the given entities, limited to `affected` when given.
    func stores(holding entities: [NSEntityDescription], affected: [NSPersistentStore]?) -> [NSPersistentStore] {
        withStores { stores in
            stores.filter { store in
                (affected.map { $0.contains { $0 === store } } ?? true)
                    && entities.contains { store.holds($0, in: managedObjectModel) }
            }
        }
    }

    private func postStoresDidChange(added: [NSPersistentStore], removed: [NSPersistentStore]) {
        var info: [String: Any] = [:]
        if !added.isEmpty { info[NSAddedPersistentStoresKey] = added }
        if !removed.isEmpty { info[NSRemovedPersistentStoresKey] = removed }
        NotificationCenter.default.post(name: .NSPersistentStoreCoordinatorStoresDidChange, object: self, userInfo: info)
    }
}

extension NSPersistentStore {
    /// Whether the store's configuration contains an entity.
    func holds(_ entity: NSEntityDescription, in model: NSManagedObjectModel) -> Bool {
        guard configurationName != NSManagedObjectModel.defaultConfigurationName else { return true }
        return model.entities(forConfigurationName: configurationName)?.contains { $0 === entity } ?? false
    }
}
