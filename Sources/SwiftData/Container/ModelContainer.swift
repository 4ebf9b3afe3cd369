internal import CoreData

/// The stores of a schema's models, and the contexts that work on them.
///
/// A container opens a store for each of its configurations (the default one when none is
/// given), migrating it first when the store was written with an earlier version of the schema:
/// through the stages of a migration plan, or by lightweight migration.
public final class ModelContainer: Equatable, @unchecked Sendable {
    /// The schema of the container's models.
    public final let schema: Schema
    /// The configurations of the container's stores. Its stores are opened when the container
    /// is made, so setting it changes nothing.
    public var configurations: Set<ModelConfiguration> {
        get { Set(configurationList) }
        set {}
    }
    /// The plan the container migrated its stores with.
    public final let migrationPlan: (any SchemaMigrationPlan.Type)?

    let coordinator: NSPersistentStoreCoordinator
    private let configurationList: [ModelConfiguration]
    // Guards `createdMainContext`; the container is shared between actors.
    private let lock = NSLock()
    // The main context and the container hold each other, as the main context must stay one
    // object with its settings: a container whose main context was used is never freed.
    private var createdMainContext: ModelContext?

    /// Creates a container for some model classes.
    ///
    /// - Parameters:
    ///   - forTypes: The model classes; the classes they are related to join them.
    ///   - migrationPlan: The stages that migrate the stores from earlier versions of the schema.
    ///   - configurations: The stores; the default configuration when none is given.
    public convenience init(
        for forTypes: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)? = nil, configurations: ModelConfiguration...
    ) throws {
        try self.init(for: Schema(forTypes), migrationPlan: migrationPlan, configurations: configurations)
    }

    /// Creates a container for a schema.
    public convenience init(for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil, configurations: ModelConfiguration...) throws {
        try self.init(for: givenSchema, migrationPlan: migrationPlan, configurations: configurations)
    }

    /// Creates a container for a schema, with a list of configurations.
    public init(for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil, configurations: [ModelConfiguration]) throws {
        schema = givenSchema
        self.migrationPlan = migrationPlan
        configurationList = configurations.isEmpty ? [ModelConfiguration()] : configurations
        let model = try ModelEntities.shared.model(for: givenSchema, configurations: Self.storeConfigurations(of: configurationList, in: givenSchema))
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let stagedPlan = migrationPlan.map { StagedMigrationPlan(plan: $0, current: givenSchema) }
        let stagedMigration = try stagedPlan?.manager()
        for configuration in configurationList {
            if let stagedPlan, !configuration.isStoredInMemoryOnly {
                try stagedPlan.checkVersion(ofStoreAt: configuration.url)
            }
            try addStore(for: configuration, stagedMigration: stagedMigration)
        }
        Self.register(self)
    }

    /// The entities of each configuration that names a schema of its own, which its store holds
    /// alone; a configuration without one holds every entity, under "default".
    private static func storeConfigurations(of configurations: [ModelConfiguration], in schema: Schema) throws -> [String: Set<String>] {
        guard Set(configurations.map(\.name)).count == configurations.count, Set(configurations.map(\.url)).count == configurations.count else {
            throw SwiftDataError(.duplicateConfiguration, "Two configurations have the same name or store.")
        }
        var entitiesByConfiguration: [String: Set<String>] = [:]
        for configuration in configurations {
            guard let own = configuration.schema, configuration.name != ManagedModelBuilder.configurationName else { continue }
            let names = Set(own.entities.map(\.name))
            guard names.isSubset(of: schema.entitiesByName.keys) else {
                throw SwiftDataError(.configurationSchemaNotFoundInContainerSchema, "The configuration \(configuration.name) has entities the container's schema does not.")
            }
            entitiesByConfiguration[configuration.name] = names
        }
        return entitiesByConfiguration
    }

    /// The Core Data configuration of a store: the configuration's own, when it names a schema.
    private static func configurationName(of configuration: ModelConfiguration) -> String {
        configuration.schema == nil ? ManagedModelBuilder.configurationName : configuration.name
    }

    /// A container over the store a migration stage has open, for the stage's blocks.
    init(migrating coordinator: NSPersistentStoreCoordinator, schema: Schema) {
        self.schema = schema
        self.migrationPlan = nil
        self.coordinator = coordinator
        configurationList = []
    }

    /// A context on the main actor, made on first use, that saves by itself after changes.
    ///
    /// A program that never runs the main run loop still uses it from the main actor, as a
    /// command-line tool's top-level code does.
    @MainActor public var mainContext: ModelContext {
        lock.withLock {
            if let createdMainContext { return createdMainContext }
            let context = ModelContext(self, concurrencyType: .mainQueueConcurrencyType)
            context.autosaveEnabled = true
            createdMainContext = context
            return context
        }
    }

    /// Deletes every model in the container's stores, which are emptied and stay open.
    @available(*, deprecated, renamed: "erase()")
    public func deleteAllData() {
        try? erase()
    }

    /// Deletes every model in the container's stores, which are emptied and stay open.
    public func erase() throws {
        for store in coordinator.persistentStores {
            let url = store.url
            let type = store.type
            let options = store.options
            try coordinator.remove(store)
            guard let url, url.path != "/dev/null" else {
                _ = try coordinator.addPersistentStore(ofType: type, configurationName: store.configurationName, at: url, options: options)
                continue
            }
            try coordinator.destroyPersistentStore(at: url, ofType: type, options: options)
            _ = try coordinator.addPersistentStore(ofType: type, configurationName: store.configurationName, at: url, options: options)
        }
    }

    public static func == (lhs: ModelContainer, rhs: ModelContainer) -> Bool {
        lhs === rhs
    }

    private func addStore(for configuration: ModelConfiguration, stagedMigration: NSStagedMigrationManager?) throws {
        var options: [AnyHashable: Any] = [
            NSMigratePersistentStoresAutomaticallyOption: true,
            NSInferMappingModelAutomaticallyOption: true,
            NSPersistentHistoryTrackingKey: true,
        ]
        if !configuration.allowsSave { options[NSReadOnlyPersistentStoreOption] = true }
        if let stagedMigration { options[NSPersistentStoreStagedMigrationManagerOptionKey] = stagedMigration }
        let configurationName = Self.configurationName(of: configuration)
        do {
            if configuration.isStoredInMemoryOnly {
                _ = try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: configurationName, at: nil, options: options)
            } else {
                try FileManager.default.createDirectory(at: configuration.url.deletingLastPathComponent(), withIntermediateDirectories: true)
                _ = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: configurationName, at: configuration.url, options: options)
            }
        } catch {
            throw SwiftDataError(.loadIssueModelContainer, "The store at \(configuration.url.path) did not open: \(error)")
        }
    }

    // MARK: Identifiers across containers

    private struct WeakContainer {
        weak var container: ModelContainer?
    }

    private static let registry = Registry()

    // Guards the list of containers, which any thread may open.
    private final class Registry: @unchecked Sendable {
        let lock = NSLock()
        var containers: [WeakContainer] = []
    }

    private static func register(_ container: ModelContainer) {
        registry.lock.withLock {
            registry.containers.removeAll { $0.container == nil }
            registry.containers.append(WeakContainer(container: container))
        }
    }

    /// The object ID of a model's URI in a store that an open container has.
    static func objectID(for uri: URL) -> NSManagedObjectID? {
        let containers = registry.lock.withLock { registry.containers.compactMap(\.container) }
        return containers.lazy.compactMap { $0.coordinator.managedObjectID(forURIRepresentation: uri) }.first
    }
}
