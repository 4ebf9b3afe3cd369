/// One version of an app's schema: its version number and its model classes.
public protocol VersionedSchema {
    /// The version number.
    static var versionIdentifier: Schema.Version { get }
    /// The model classes of this version.
    static var models: [any PersistentModel.Type] { get }
}

/// The versions of an app's schema, oldest first, and the stages that migrate a store from
/// each version to the next.
public protocol SchemaMigrationPlan {
    /// The versions, oldest first.
    static var schemas: [any VersionedSchema.Type] { get }
    /// The stages, in the order they run.
    static var stages: [MigrationStage] { get }
}

/// A step of a migration plan: from one version of the schema to another.
public enum MigrationStage {
    /// A migration Core Data infers from the two versions.
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    /// A migration with code of the app's before and after the store changes shape:
    /// `willMigrate` works on the store in the old version, `didMigrate` in the new one.
    case custom(
        fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type, willMigrate: ((ModelContext) throws -> Void)?,
        didMigrate: ((ModelContext) throws -> Void)?)
}
