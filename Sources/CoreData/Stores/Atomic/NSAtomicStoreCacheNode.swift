/// One object of an atomic store, as the store keeps it in memory.
///
/// An attribute's value is the attribute's value; a to-one relationship's value is the
/// destination's cache node; a to-many relationship's value is a set (an ordered set when
/// ordered) of cache nodes. Values of the entity's properties live in ``propertyCache``.
open class NSAtomicStoreCacheNode: NSObject {
    private let identifier: NSManagedObjectID
    /// The values, until something asks for ``propertyCache``: a Swift dictionary costs far
    /// less than an `NSMutableDictionary`, whose keys Linux Foundation bridges to `NSString`.
    private var values: [String: Any] = [:]
    /// The values once something asked for ``propertyCache``, which callers may change in place.
    private var dictionary: NSMutableDictionary?
    private var usesDictionary = false
    /// The optimistic-locking version of the node's values: 1 when loaded or inserted, one more
    /// at each save that changes them.
    var version: Int64 = 1 {
        didSet { row = nil }
    }
    /// The node's row as fetches return it, made once for all fetches until a value or the
    /// version changes; never kept once the values are in ``propertyCache``, which callers may
    /// change in place.
    var row: RowSnapshot? {
        get { usesDictionary ? nil : cachedRow }
        set { cachedRow = newValue }
    }
    private var cachedRow: RowSnapshot?

    /// Creates a node for the object with an ID.
    public init(objectID moid: NSManagedObjectID) {
        identifier = moid
        super.init()
    }

    /// The ID of the object the node holds.
    open var objectID: NSManagedObjectID { identifier }

    /// The values of the node's properties, by name; nil until a value is set.
    open var propertyCache: NSMutableDictionary? {
        get {
            if !usesDictionary {
                usesDictionary = true
                dictionary = values.isEmpty ? nil : NSMutableDictionary(dictionary: values)
                values = [:]
            }
            return dictionary
        }
        set {
            usesDictionary = true
            dictionary = newValue
            values = [:]
        }
    }

    /// The value of a property of the node's entity, from ``propertyCache``.
    open func value(forKey key: String) -> Any? {
        usesDictionary ? dictionary?[key] : values[key]
    }

    /// Sets the value of a property of the node's entity in ``propertyCache``, making the cache
    /// for a first value; nil removes the value.
    open func setValue(_ value: Any?, forKey key: String) {
        cachedRow = nil
        guard usesDictionary else {
            values[key] = value
            return
        }
        guard let value else {
            dictionary?.removeObject(forKey: key)
            return
        }
        if dictionary == nil { dictionary = NSMutableDictionary() }
        dictionary?[key] = value
    }

    // MARK: Saving

    /// Every value by property name, without turning the node's values into ``propertyCache``.
    var allValues: [String: Any] {
        guard usesDictionary else { return values }
        var all: [String: Any] = [:]
        dictionary?.forEach { key, value in (key as? String).map { all[$0] = value } }
        return all
    }

    /// The node's values and version as they are, to put back after a failed save.
    struct SavedValues {
        fileprivate let values: [String: Any]
        fileprivate let dictionary: NSMutableDictionary?
        fileprivate let usesDictionary: Bool
        fileprivate let version: Int64
    }

    func savedValues() -> SavedValues {
        SavedValues(values: values, dictionary: dictionary?.mutableCopy() as? NSMutableDictionary, usesDictionary: usesDictionary, version: version)
    }

    func restore(_ saved: SavedValues) {
        cachedRow = nil
        values = saved.values
        dictionary = saved.dictionary
        usesDictionary = saved.usesDictionary
        version = saved.version
    }
}
