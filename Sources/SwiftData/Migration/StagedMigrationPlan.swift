internal import CoreData

/// A migration plan as Core Data's staged migration: each stage between two versions of the
/// schema becomes a migration stage between their Core Data models, and a custom stage's blocks
/// get a model context on the store in the version they expect.
struct StagedMigrationPlan {
    let plan: any SchemaMigrationPlan.Type
    let current: Schema

    func manager() throws -> NSStagedMigrationManager {
        NSStagedMigrationManager(try plan.stages.map(stage(for:)))
    }

    /// Fails when the store at `url` was written with a version of the schema that neither the
    /// plan nor the container has: nothing can migrate it, and it is left untouched.
    func checkVersion(ofStoreAt url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path),
            let metadata = try? NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        else { return }
        let known = [current] + (plan.schemas + plan.stages.flatMap(\.versions)).map(Schema.init(versionedSchema:))
        let isKnown = try known.contains { schema in
            try ModelEntities.shared.model(for: schema).isConfiguration(withName: ManagedModelBuilder.configurationName, compatibleWithStoreMetadata: metadata)
        }
        guard !isKnown else { return }
        let storeVersions = (metadata[NSStoreModelVersionIdentifiersKey] as? [String]) ?? []
        throw SwiftDataError(
            .loadIssueModelContainer,
            "The store at \(url.path) was written with schema version \(storeVersions.joined(separator: ", ")), which the migration plan \(plan) does not have; it was left as it is.")
    }

    // A lightweight stage is a custom stage without blocks: the engine infers the step between
    // two model references as it does for a lightweight stage, and a reference brings its model,
    // where a lightweight stage's checksums would have to be found among the models the program
    // ships, which a SwiftData program has none of.
    private func stage(for stage: MigrationStage) throws -> NSMigrationStage {
        switch stage {
        case .lightweight(let from, let to):
            return try customStage(from: from, to: to)
        case .custom(let from, let to, let willMigrate, let didMigrate):
            let custom = try customStage(from: from, to: to)
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

    private func customStage(from: any VersionedSchema.Type, to: any VersionedSchema.Type) throws -> NSCustomMigrationStage {
        let stage = NSCustomMigrationStage(migratingFrom: try reference(to: from), to: try reference(to: to))
        stage.label = "\(from.versionIdentifier) to \(to.versionIdentifier)"
        return stage
    }

    private func reference(to version: any VersionedSchema.Type) throws -> NSManagedObjectModelReference {
        let model = try ModelEntities.shared.model(for: Schema(versionedSchema: version))
        return NSManagedObjectModelReference(model: model, versionChecksum: model.versionChecksum)
    }

    /// Runs a stage's block on the context's queue, with a context on the store the migration
    /// has open, then saves what the block changed.
    private static func run(_ block: (ModelContext) throws -> Void, on manager: NSStagedMigrationManager, schema: Schema) throws {
        guard let coordinator = manager.container?.persistentStoreCoordinator else { return }
        let context = ModelContext(ModelContainer(migrating: coordinator, schema: schema))
        try context.managedContext.performAndWait {
            try block(context)
            try context.save()
        }
    }
}

extension MigrationStage {
    /// The two versions the stage migrates between.
    fileprivate var versions: [any VersionedSchema.Type] {
        switch self {
        case .lightweight(let from, let to), .custom(let from, let to, _, _): [from, to]
        }
    }
}
