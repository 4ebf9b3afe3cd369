internal import CoreData

/// A migration plan as Core Data's staged migration: each stage between two versions of the
/// schema becomes a lightweight or custom migration stage between their Core Data models, and a
/// custom stage's blocks get a model context on the store in the version they expect.
struct StagedMigrationPlan {
    let plan: any SchemaMigrationPlan.Type
    let current: Schema

    func manager() throws -> NSStagedMigrationManager {
        let stages = try plan.stages.map(stage(for:))
        return NSStagedMigrationManager(stages)
    }

    private func stage(for stage: MigrationStage) throws -> NSMigrationStage {
        switch stage {
        case .lightweight(let from, let to):
            let source = try model(of: from)
            _ = try model(of: to)
            return NSLightweightMigrationStage([source.versionChecksum])
        case .custom(let from, let to, let willMigrate, let didMigrate):
            let source = try model(of: from)
            let destination = try model(of: to)
            let custom = NSCustomMigrationStage(
                migratingFrom: NSManagedObjectModelReference(model: source, versionChecksum: source.versionChecksum),
                to: NSManagedObjectModelReference(model: destination, versionChecksum: destination.versionChecksum))
            let fromSchema = Schema(versionedSchema: from)
            let toSchema = Schema(versionedSchema: to)
            if let willMigrate {
                custom.willMigrateHandler = { manager, _ in try Self.run(willMigrate, on: manager, schema: fromSchema) }
            }
            if let didMigrate {
                custom.didMigrateHandler = { manager, _ in try Self.run(didMigrate, on: manager, schema: toSchema) }
            }
            return custom
        }
    }

    private func model(of version: any VersionedSchema.Type) throws -> NSManagedObjectModel {
        try ModelEntities.shared.model(for: Schema(versionedSchema: version))
    }

    /// Runs a stage's block with a context on the store the migration has open, then saves
    /// what the block changed.
    private static func run(_ block: (ModelContext) throws -> Void, on manager: NSStagedMigrationManager, schema: Schema) throws {
        guard let coordinator = manager.container?.persistentStoreCoordinator else { return }
        let container = ModelContainer(migrating: coordinator, schema: schema)
        let context = ModelContext(container)
        try block(context)
        try context.save()
    }
}
