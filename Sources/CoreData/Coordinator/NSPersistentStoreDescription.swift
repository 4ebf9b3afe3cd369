/// How to create and load a persistent store: its type, location, configuration and options.
open class NSPersistentStoreDescription: NSObject, NSCopying {
    /// The store type; `NSSQLiteStoreType` by default.
    open var type: String = NSSQLiteStoreType

    /// The configuration of the model whose entities the store holds; nil for all entities.
    open var configuration: String?

    /// The location of the store.
    open var url: URL?

    /// The store options, by key.
    open private(set) var options: [String: NSObject] = [:]

    /// Whether the coordinator adds the store in the background.
    open var shouldAddStoreAsynchronously: Bool = false

    /// Whether an incompatible store is migrated automatically. The default is true.
    open var shouldMigrateStoreAutomatically: Bool = true

    /// Whether the mapping of an automatic migration is inferred. The default is true.
    open var shouldInferMappingModelAutomatically: Bool = true

    /// Creates a description of a SQLite store with no location.
    public override init() {
        super.init()
    }

    /// Creates a description of a SQLite store at a location.
    public convenience init(url: URL) {
        self.init()
        self.url = url
    }

    /// Whether the store is opened read-only.
    open var isReadOnly: Bool {
        get { (options[NSReadOnlyPersistentStoreOption] as? NSNumber)?.boolValue ?? false }
        set { setOption(NSNumber(value: newValue), forKey: NSReadOnlyPersistentStoreOption) }
    }

    /// Seconds to wait for the store's lock.
    open var timeout: TimeInterval {
        get { (options[NSPersistentStoreTimeoutOption] as? NSNumber)?.doubleValue ?? 240 }
        set { setOption(NSNumber(value: newValue), forKey: NSPersistentStoreTimeoutOption) }
    }

    /// Sets (or, with nil, removes) a store option.
    open func setOption(_ option: NSObject?, forKey key: String) {
        options[key] = option
    }

    /// The SQLite pragmas set when the store opens.
    open var sqlitePragmas: [String: NSObject] {
        (options[NSSQLitePragmasOption] as? NSDictionary).map { dictionary in
            var pragmas: [String: NSObject] = [:]
            for case let (key as String, value as NSObject) in dictionary { pragmas[key] = value }
            return pragmas
        } ?? [:]
    }

    /// Sets (or, with nil, removes) a SQLite pragma.
    open func setValue(_ value: NSObject?, forPragmaNamed name: String) {
        var pragmas = sqlitePragmas
        pragmas[name] = value
        setOption(NSDictionary(dictionary: pragmas), forKey: NSSQLitePragmasOption)
    }

    /// The options handed to the coordinator, with the migration switches included.
    var coordinatorOptions: [AnyHashable: Any] {
        var result: [AnyHashable: Any] = [:]
        for (key, value) in options { result[key] = value }
        result[NSMigratePersistentStoresAutomaticallyOption] = shouldMigrateStoreAutomatically
        result[NSInferMappingModelAutomaticallyOption] = shouldInferMappingModelAutomatically
        return result
    }

    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSPersistentStoreDescription()
        copy.type = type
        copy.configuration = configuration
        copy.url = url
        copy.options = options
        copy.shouldAddStoreAsynchronously = shouldAddStoreAsynchronously
        copy.shouldMigrateStoreAutomatically = shouldMigrateStoreAutomatically
        copy.shouldInferMappingModelAutomatically = shouldInferMappingModelAutomatically
        return copy
    }

    open override var description: String {
        "<NSPersistentStoreDescription> (type: \(type), url: \(url?.absoluteString ?? "nil"))"
    }
}
