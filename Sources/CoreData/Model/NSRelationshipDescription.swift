/// The description of a relationship from one entity to another.
// Like every property description: mutable while the model is built, read-only once it is frozen.
open class NSRelationshipDescription: NSPropertyDescription, @unchecked Sendable {
    /// Whether a non-optional to-many relationship may hold no objects: SwiftData's arrays of
    /// models are never nil, so an empty one is a value, though the relationship is not optional.
    package var mayBeEmpty = false

    /// The entity at the other end of the relationship.
    public weak var destinationEntity: NSEntityDescription? {
        willSet { assertEditable() }
    }

    /// The relationship that points back from the destination, kept consistent by Core Data.
    public weak var inverseRelationship: NSRelationshipDescription? {
        willSet { assertEditable() }
    }

    /// The largest number of destinations; 1 makes a to-one relationship, 0 (the default, as on
    /// Apple platforms) an unbounded to-many.
    public var maxCount: Int = 0 {
        willSet { assertEditable() }
    }

    /// The smallest number of destinations enforced at save when the relationship is not empty.
    public var minCount: Int = 0 {
        willSet { assertEditable() }
    }

    /// What happens to the destinations when the source object is deleted.
    public var deleteRule: NSDeleteRule = .nullifyDeleteRule {
        willSet { assertEditable() }
    }

    /// Whether a to-many relationship keeps its destinations in order (an `NSOrderedSet`).
    public var isOrdered: Bool = false {
        willSet { assertEditable() }
    }

    /// Whether the relationship can have more than one destination.
    public var isToMany: Bool {
        maxCount != 1
    }

    override func copyProperties(from other: NSPropertyDescription) {
        super.copyProperties(from: other)
        guard let other = other as? NSRelationshipDescription else { return }
        destinationEntity = other.destinationEntity
        inverseRelationship = other.inverseRelationship
        maxCount = other.maxCount
        minCount = other.minCount
        deleteRule = other.deleteRule
        isOrdered = other.isOrdered
    }

    open override var description: String {
        "\(super.description), destination entity \(destinationEntity?.name ?? "nil"), inverse relationship \(inverseRelationship?.name ?? "nil"), minCount \(minCount), maxCount \(maxCount), isOrdered \(isOrdered), deleteRule \(deleteRule.rawValue)"
    }
}
