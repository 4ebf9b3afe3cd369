/// How the instances of one source entity become instances of one destination entity.
///
/// A mapping names its entities and records their version hashes, which must equal those of the
/// models it migrates between. `sourceExpression` selects the source instances (all instances of
/// the source entity when it is nil); the attribute and relationship mappings compute each
/// destination property; the migration policy class runs the three passes of a migration.
open class NSEntityMapping: NSObject {
    /// The mapping's name, unique in its mapping model (`ArtistToPerformer`).
    open var name: String!

    /// What the mapping does.
    open var mappingType: NSEntityMappingType = .undefinedEntityMappingType

    /// The name of the source entity; nil for an add mapping.
    open var sourceEntityName: String?

    /// The version hash of the source entity.
    open var sourceEntityVersionHash: Data?

    /// The name of the destination entity; nil for a remove mapping.
    open var destinationEntityName: String?

    /// The version hash of the destination entity.
    open var destinationEntityVersionHash: Data?

    /// The mappings of the destination entity's attributes.
    open var attributeMappings: [NSPropertyMapping]?

    /// The mappings of the destination entity's relationships.
    open var relationshipMappings: [NSPropertyMapping]?

    /// The expression that yields the source instances; nil means every instance of the source
    /// entity, sub-entities excluded.
    open var sourceExpression: NSExpression?

    /// Application data attached to the mapping, given to its migration policy.
    open var userInfo: [AnyHashable: Any]?

    /// The name of the `NSEntityMigrationPolicy` subclass that runs the mapping; nil for
    /// `NSEntityMigrationPolicy` itself.
    open var entityMigrationPolicyClassName: String?

    public override init() {
        super.init()
    }

    /// The attribute or relationship mapping of a destination property.
    func propertyMapping(named name: String) -> NSPropertyMapping? {
        (attributeMappings ?? []).first { $0.name == name } ?? (relationshipMappings ?? []).first { $0.name == name }
    }

    open override var description: String {
        "(<NSEntityMapping>) name \(name ?? "nil"), mappingType \(mappingType), source \(sourceEntityName ?? "nil"), destination \(destinationEntityName ?? "nil")"
    }
}
