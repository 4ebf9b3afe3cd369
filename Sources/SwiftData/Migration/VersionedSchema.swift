/// One version of an app's schema: its version number and its model classes.
public protocol VersionedSchema: SendableMetatype {
    /// The version number, which the stores written with this version record.
    static var versionIdentifier: Schema.Version { get }
    /// The model classes of this version.
    static var models: [any PersistentModel.Type] { get }
}

/// The versions of an app's schema, oldest first, and the stages that migrate a store from
/// each version to the next.
public protocol SchemaMigrationPlan: SendableMetatype {
    /// The versions, oldest first.
    static var schemas: [any VersionedSchema.Type] { get }
    /// The stages, in the order they run.
    static var stages: [MigrationStage] { get }
}

/// A step of a migration plan: from one version of the schema to another.
public enum MigrationStage: Sendable {
    /// A migration Core Data infers from the two versions.
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    /// A migration with code of the app's before and after the store changes shape.
    ///
    /// `willMigrate` runs first, with a context on the store still at `fromVersion`, whose
    /// models are that version's classes; `didMigrate` runs after the store changed shape, with
    /// a context on the store at `toVersion`. What a block changes is saved when it returns; a
    /// block that throws stops the migration, and the container does not open.
    @preconcurrency case custom(
        fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type, willMigrate: (@Sendable (ModelContext) throws -> Void)?,
        didMigrate: (@Sendable (ModelContext) throws -> Void)?)
}
