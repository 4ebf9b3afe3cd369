/// A staged migration of a store: the stages of an `NSStagedMigrationManager`, from the version
/// the store was written with on, each version step migrated in place with an inferred mapping
/// and, for a custom stage, its handlers run around it on a container at the step's versions
/// (spec `semantics.md` MIG-16…19). The store type migrates each step itself: SQLite in its
/// file, PostgreSQL in its schema.
package struct StagedMigration {
    let manager: NSStagedMigrationManager
    /// The store being added: the handlers' container opens it at the same place, with the same
    /// type and options (a store that records history is read-only without them).
    let store: NSPersistentStore
    /// Where the store is, as its URL names it.
    let url: URL
    let destinationModel: NSManagedObjectModel
    /// Migrates the store in place from one model version to the next with a mapping model.
    let migrateInPlace: (_ source: NSManagedObjectModel, _ destination: NSManagedObjectModel, _ mapping: NSMappingModel) throws -> Void

    package init(
        manager: NSStagedMigrationManager,
        store: NSPersistentStore,
        at url: URL,
        destinationModel: NSManagedObjectModel,
        migrateInPlace: @escaping (_ source: NSManagedObjectModel, _ destination: NSManagedObjectModel, _ mapping: NSMappingModel) throws -> Void
    ) {
        self.manager = manager
        self.store = store
        self.url = url
        self.destinationModel = destinationModel
        self.migrateInPlace = migrateInPlace
    }

    /// One version step, and the custom stage it belongs to, if any.
    private struct Step {
        let from: NSManagedObjectModel
        let to: NSManagedObjectModel
        let stage: NSCustomMigrationStage?
    }

    /// Runs the steps from the version of the store with `metadata` on. A store whose version no
    /// stage names is left as it is, for the coordinator's other checks.
    package func run(metadata: [String: Any]) throws {
        let resolver = VersionResolver(destinationModel: destinationModel)
        // References first: a lightweight stage may name versions only a later custom stage has.
        for case .reference(let reference) in manager.stages.flatMap({ $0.stageVersions() }) {
            _ = try resolver.model(for: .reference(reference))
        }
        let steps = try manager.stages.flatMap { try self.steps(of: $0, resolver: resolver) }
        let order = Self.versionOrder(of: steps)
        guard let storeIndex = order.firstIndex(where: { isVersion($0, of: metadata) }) else { return }
        if let destinationIndex = order.firstIndex(where: { $0.versionChecksum == destinationModel.versionChecksum }), storeIndex > destinationIndex {
            throw CoreDataError.make(
                NSStagedMigrationBackwardMigrationError,
                "The store at \(url.path) has a later model version than the one it is opened with; staged migration does not migrate backward.",
                userInfo: [NSURLErrorKey: url]
            )
        }
        var current = order[storeIndex].versionChecksum
        for step in steps where step.from.versionChecksum == current && current != destinationModel.versionChecksum {
            try migrate(step)
            current = step.to.versionChecksum
        }
    }

    // MARK: Steps

    private func steps(of stage: NSMigrationStage, resolver: VersionResolver) throws -> [Step] {
        let models = try stage.stageVersions().map { try resolver.model(for: $0) }
        return zip(models, models.dropFirst()).map { Step(from: $0, to: $1, stage: stage as? NSCustomMigrationStage) }
    }

    /// Every version the steps name, once each, in the order the stages give.
    private static func versionOrder(of steps: [Step]) -> [NSManagedObjectModel] {
        var seen = Set<String>()
        return steps.flatMap { [$0.from, $0.to] }.filter { seen.insert($0.versionChecksum).inserted }
    }

    private func isVersion(_ model: NSManagedObjectModel, of metadata: [String: Any]) -> Bool {
        let name = store.modelConfiguration.flatMap { model.configurations.contains($0) ? $0 : nil }
        return model.isConfiguration(withName: name, compatibleWithStoreMetadata: metadata)
    }

    private func migrate(_ step: Step) throws {
        if let stage = step.stage, let handler = stage.willMigrateHandler {
            try withContainer(at: step.from) { try handler(manager, stage) }
        }
        let mapping = try AutomaticMigration.mappingModel(from: step.from, to: step.to, inferring: true, url: url)
        try migrateInPlace(step.from, step.to, mapping)
        if let stage = step.stage, let handler = stage.didMigrateHandler {
            try withContainer(at: step.to) { try handler(manager, stage) }
        }
    }

    /// Runs `body` with the manager's `container` holding the store, opened with `model`.
    private func withContainer(at model: NSManagedObjectModel, _ body: () throws -> Void) throws {
        let container = NSPersistentContainer(name: url.deletingPathExtension().lastPathComponent, managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: url)
        description.type = store.type
        description.configuration = store.modelConfiguration
        for case let (key as String, value as NSObject) in store.options ?? [:] where key != NSPersistentStoreStagedMigrationManagerOptionKey {
            description.setOption(value, forKey: key)
        }
        description.shouldMigrateStoreAutomatically = false
        description.shouldInferMappingModelAutomatically = false
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        manager.container = container
        defer {
            manager.container = nil
            for store in container.persistentStoreCoordinator.persistentStores {
                try? container.persistentStoreCoordinator.remove(store)
            }
        }
        try body()
    }
}

/// Finds the model of each version a stage names: references resolve themselves; a lightweight
/// stage's checksums are looked up among the models of the references, the model the store is
/// opened with and its sibling versions, and every version of the models the program ships.
private final class VersionResolver {
    private var known: [String: NSManagedObjectModel] = [:]
    private var searchedShippedModels = false

    init(destinationModel: NSManagedObjectModel) {
        for model in [destinationModel] + ModelBundle.siblingVersions(of: destinationModel) {
            remember(model)
        }
    }

    func model(for version: StageVersion) throws -> NSManagedObjectModel {
        switch version {
        case .reference(let reference):
            let model = try reference.resolve()
            remember(model)
            return model
        case .checksum(let checksum):
            if let model = known[checksum] { return model }
            searchShippedModels()
            guard let model = known[checksum] else {
                throw CoreDataError.make(
                    NSManagedObjectModelReferenceNotFoundError,
                    "No model version with the checksum \(checksum) was found for a lightweight migration stage.",
                    userInfo: ["versionChecksum": checksum]
                )
            }
            return model
        }
    }

    private func remember(_ model: NSManagedObjectModel) {
        known[model.versionChecksum] = known[model.versionChecksum] ?? model
    }

    private func searchShippedModels() {
        guard !searchedShippedModels else { return }
        searchedShippedModels = true
        for url in ModelLocator.modelURLs(in: ModelLocator.searchDirectories(for: nil)) {
            for model in (try? ModelBundle(url: url).allModels()) ?? [] {
                remember(model)
            }
        }
    }
}
