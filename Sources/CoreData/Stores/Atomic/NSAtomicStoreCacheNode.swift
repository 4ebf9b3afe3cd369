/// One object of an atomic store, as the store keeps it in memory.
///
/// An attribute's value is the attribute's value; a to-one relationship's value is the
/// destination's cache node; a to-many relationship's value is a set (an ordered set when
/// ordered) of cache nodes. Values of the entity's properties live in ``propertyCache``.
open class NSAtomicStoreCacheNode: NSObject {
    private let identifier: NSManagedObjectID

    /// The values of the node's properties, by name; nil until a value is set.
    open var propertyCache: NSMutableDictionary?

    /// Creates a node for the object with an ID.
    public init(objectID moid: NSManagedObjectID) {
        identifier = moid
        super.init()
    }

    /// The ID of the object the node holds.
    open var objectID: NSManagedObjectID { identifier }

    /// The value of a property of the node's entity, from ``propertyCache``.
    open func value(forKey key: String) -> Any? {
        propertyCache?[key]
    }

    /// Sets the value of a property of the node's entity in ``propertyCache``, making the cache
    /// for a first value; nil removes the value.
    open func setValue(_ value: Any?, forKey key: String) {
        guard let value else {
            propertyCache?.removeObject(forKey: key)
            return
        }
        if propertyCache == nil { propertyCache = NSMutableDictionary() }
        propertyCache?[key] = value
    }
}
