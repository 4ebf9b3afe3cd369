// The variables a migration binds when it evaluates value expressions, with Apple's names.

/// `$manager`: the migration manager.
public let NSMigrationManagerKey: String = "manager"
/// `$source`: the source instance.
public let NSMigrationSourceObjectKey: String = "source"
/// `$destination`: the destination instance.
public let NSMigrationDestinationObjectKey: String = "destination"
/// `$entityMapping`: the entity mapping being run.
public let NSMigrationEntityMappingKey: String = "entityMapping"
/// `$propertyMapping`: the property mapping being evaluated.
public let NSMigrationPropertyMappingKey: String = "propertyMapping"
/// `$entityPolicy`: the entity migration policy of the mapping being run.
public let NSMigrationEntityPolicyKey: String = "entityPolicy"
