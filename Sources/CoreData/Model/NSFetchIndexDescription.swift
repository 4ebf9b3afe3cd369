/// The description of an index the store builds over one or more properties of an entity.
// Part of a model: mutable while the model is built, read-only once it is frozen.
open class NSFetchIndexDescription: NSObject, NSCopying, @unchecked Sendable {
    /// The name of the index; the SQLite store names the index `Z_<Entity>_<name>`.
    public var name: String

    /// The indexed properties, in order.
    public var elements: [NSFetchIndexElementDescription] {
        didSet { elements.forEach { $0.indexDescription = self } }
    }

    /// An optional predicate that restricts the index to matching rows.
    public var partialIndexPredicate: NSPredicate?

    /// The entity the index belongs to (see `OwnerReference`).
    var entityReference = OwnerReference<NSEntityDescription>()

    /// The entity the index belongs to.
    public internal(set) var entity: NSEntityDescription? {
        get { entityReference.owner }
        set { entityReference = OwnerReference(newValue) }
    }

    /// Creates an index with a name and its elements.
    public init(name: String, elements: [NSFetchIndexElementDescription]?) {
        self.name = name
        self.elements = elements ?? []
        super.init()
        self.elements.forEach { $0.indexDescription = self }
    }

    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSFetchIndexDescription(name: name, elements: elements.compactMap { $0.copy() as? NSFetchIndexElementDescription })
        copy.partialIndexPredicate = partialIndexPredicate
        return copy
    }
}

/// The kind of index a fetch index element belongs to.
public enum NSFetchIndexElementType: UInt, Sendable {
    case binary = 0
    case rTree = 1
}

/// One element of a fetch index: a property and its collation order.
// Part of a model: mutable while the model is built, read-only once it is frozen.
open class NSFetchIndexElementDescription: NSObject, NSCopying, @unchecked Sendable {

    /// The indexed property.
    public var property: NSPropertyDescription?

    /// The name of the indexed property.
    public var propertyName: String? { property?.name }

    /// Whether the element sorts ascending.
    public var isAscending: Bool = true

    /// The collation of the element.
    public var collationType: NSFetchIndexElementType

    /// The index this element belongs to.
    public internal(set) weak var indexDescription: NSFetchIndexDescription?

    /// Creates an element for a property with a collation type.
    public init(property: NSPropertyDescription, collationType: NSFetchIndexElementType) {
        self.property = property
        self.collationType = collationType
        super.init()
    }

    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSFetchIndexElementDescription(property: property ?? NSPropertyDescription(), collationType: collationType)
        copy.property = property
        copy.isAscending = isAscending
        return copy
    }
}
