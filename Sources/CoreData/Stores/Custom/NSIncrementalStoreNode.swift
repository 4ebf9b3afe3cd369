/// The values of one object an incremental store holds, as the store hands them to Core Data.
///
/// An incremental store returns a node from `newValuesForObject(with:with:)` to fill a fault.
/// Values are keyed by property name: an attribute's value (nil when the key is absent); a to-one
/// relationship's destination `NSManagedObjectID`, or `NSNull` for none; a to-many
/// relationship's destinations as a set or an array of IDs. A relationship whose key is absent is
/// asked for later with `newValue(forRelationship:forObjectWith:with:)`. Keys that name no
/// property of the object's entity are dropped.
open class NSIncrementalStoreNode: NSObject {
    private let identifier: NSManagedObjectID
    private var values: [String: Any]
    private var storedVersion: UInt64

    /// Creates a node for an object with its values and version.
    ///
    /// - Parameters:
    ///   - objectID: The object's ID.
    ///   - values: The object's values by property name.
    ///   - version: The version of the values, which optimistic locking compares at save.
    public init(objectID: NSManagedObjectID, withValues values: [String: Any], version: UInt64) {
        identifier = objectID
        self.values = Self.modeled(values, of: objectID.entity)
        storedVersion = version
        super.init()
    }

    /// Replaces the node's values and version with those the store saved or loaded.
    open func update(withValues values: [String: Any], version: UInt64) {
        self.values = Self.modeled(values, of: identifier.entity)
        storedVersion = version
    }

    /// The ID of the object whose values the node holds.
    open var objectID: NSManagedObjectID { identifier }

    /// The version of the node's values.
    open var version: UInt64 { storedVersion }

    /// The value of a property: nil when the node has none; `NSNull` for a to-one relationship
    /// without a destination.
    open func value(for prop: NSPropertyDescription) -> Any? {
        values[prop.name]
    }

    /// Whether the node holds a value, `NSNull` included, for a property.
    func hasValue(for property: NSPropertyDescription) -> Bool {
        values[property.name] != nil
    }

    private static func modeled(_ values: [String: Any], of entity: NSEntityDescription) -> [String: Any] {
        let names = entity.propertiesByName
        return values.filter { names[$0.key] != nil }
    }
}
