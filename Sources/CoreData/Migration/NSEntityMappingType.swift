/// What an entity mapping does with the instances of its source entity.
public enum NSEntityMappingType: UInt, Sendable {
    /// A mapping whose type was never set.
    case undefinedEntityMappingType = 0
    /// A mapping run by its entity migration policy, which must be a subclass.
    case customEntityMappingType = 1
    /// Adds a destination entity that has no source: no instances are migrated.
    case addEntityMappingType = 2
    /// Drops a source entity that has no destination: its instances are not migrated.
    case removeEntityMappingType = 3
    /// Copies instances of an unchanged entity.
    case copyEntityMappingType = 4
    /// Copies instances of an entity that exists in both models but changed.
    case transformEntityMappingType = 5
}
