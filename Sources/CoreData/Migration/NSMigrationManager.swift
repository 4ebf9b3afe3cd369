/// Migrates the data of a store written with one model into a store of another model, following
/// a mapping model.
///
/// The manager reads the source store through `sourceContext`, creates the destination
/// instances in `destinationContext` in three passes over the entity mappings (instances,
/// relationships, validation; see `NSEntityMigrationPolicy`), and saves the destination store once
/// at the end: a migration that fails writes nothing, and the source store is never changed.
///
/// When both stores are SQLite stores, the destination does not exist yet and the mapping needs no
/// objects (the mappings inference makes, and mappings built in code from the same forms), the
/// manager copies the source file and migrates the copy in SQL instead
/// (`usesStoreSpecificMigrationManager`); policies and progress then are not called per object.
open class NSMigrationManager: NSObject {
    /// The model of the source store.
    public let sourceModel: NSManagedObjectModel

    /// The model of the destination store.
    public let destinationModel: NSManagedObjectModel

    /// The mapping model of the running or last migration; empty before the first.
    open private(set) var mappingModel = NSMappingModel()

    /// Application data for the migration's policies.
    open var userInfo: [AnyHashable: Any]?

    /// Whether the manager may hand a migration between two SQLite stores to the store, which
    /// migrates a copy of the file in SQL. True by default; set it to false to run every
    /// migration through policies and contexts.
    open var usesStoreSpecificMigrationManager = true

    /// The entity mapping being run; an empty mapping outside a migration.
    open internal(set) var currentEntityMapping = NSEntityMapping()

    /// How much of the running migration is done, from 0 to 1; 0 again once it has ended.
    open internal(set) var migrationProgress: Float = 0

    var associations = MigrationAssociations()
    var progress: Progress?
    /// The property whose value expression is being evaluated, so that the destinations of a
    /// source relationship can be those of the relationship's destination entity.
    var evaluatedProperty: NSPropertyDescription?
    // `cancelMigrationWithError(_:)` may come from another thread than the migration's.
    private let cancellationLock = NSLock()
    private var storedCancellation: Error?
    private var stacks: (source: MigrationStack, destination: MigrationStack)?

    /// A context with a coordinator of its own.
    struct MigrationStack {
        let context: NSManagedObjectContext
        let coordinator: NSPersistentStoreCoordinator

        /// A context confined to the thread that runs the migration, as Apple's are.
        init(model: NSManagedObjectModel) {
            coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            context = NSManagedObjectContext(concurrencyType: .confinementConcurrencyType)
            context.persistentStoreCoordinator = coordinator
        }
    }

    /// Creates a manager that migrates stores of `sourceModel` into stores of `destinationModel`.
    /// The models can no longer be changed.
    public init(sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel) {
        sourceModel.freeze()
        destinationModel.freeze()
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
        super.init()
    }

    /// The context the manager reads the source store with.
    open var sourceContext: NSManagedObjectContext {
        migrationStacks.source.context
    }

    /// The context the manager writes the destination store with.
    open var destinationContext: NSManagedObjectContext {
        migrationStacks.destination.context
    }

    /// The stacks of the source and destination stores, made on first use.
    var migrationStacks: (source: MigrationStack, destination: MigrationStack) {
        if let stacks { return stacks }
        let made = (source: MigrationStack(model: sourceModel), destination: MigrationStack(model: destinationModel))
        stacks = made
        return made
    }

    // MARK: Migrating

    /// Migrates the store at `sourceURL` into the store at `dURL`, creating it if it does not exist
    /// and adding to it otherwise.
    ///
    /// - Parameters:
    ///   - sourceURL: The source store, which must exist and match `sourceModel`.
    ///   - sStoreType: The source store's type, such as `NSSQLiteStoreType`.
    ///   - sOptions: Options for opening the source store.
    ///   - mappings: The mapping model; when nil, the manager infers one
    ///     (`NSMappingModel.inferredMappingModel(forSourceModel:destinationModel:)`).
    ///   - dURL: The destination store.
    ///   - dStoreType: The destination store's type.
    ///   - dOptions: Options for opening the destination store.
    /// - Throws: `NSMigrationManagerSourceStoreError` (134150) or
    ///   `NSMigrationManagerDestinationStoreError` (134160) when a store cannot be opened, with the
    ///   store's error underneath; `NSMigrationError` (134110) when the mapping does not fit the
    ///   models or a value expression fails; the error of a policy callback that throws, or the
    ///   one given to `cancelMigrationWithError(_:)`. The destination store is then left as it was.
    open func migrateStore(
        from sourceURL: URL,
        sourceType sStoreType: String,
        options sOptions: [AnyHashable: Any]? = nil,
        with mappings: NSMappingModel?,
        toDestinationURL dURL: URL,
        destinationType dStoreType: String,
        destinationOptions dOptions: [AnyHashable: Any]? = nil
    ) throws {
        let mapping = try mappings ?? NSMappingModel.inferredMappingModel(forSourceModel: sourceModel, destinationModel: destinationModel)
        try MappingModelCheck(mapping: mapping, sourceModel: sourceModel, destinationModel: destinationModel).run()
        CoreDataMetrics.migrations.increment()
        // Each run starts from new contexts and tables; they stay for inspection after it.
        reset()
        mappingModel = mapping
        cancellation = nil
        let run = StoreMigrationRun(
            manager: self,
            source: .init(url: sourceURL, type: sStoreType, options: sOptions),
            destination: .init(url: dURL, type: dStoreType, options: dOptions)
        )
        // As Apple's manager, which is ready for another run once one ends.
        defer {
            currentEntityMapping = NSEntityMapping()
            migrationProgress = 0
        }
        try run.perform()
    }

    /// Migrates the store at `sourceURL` into the store at `destinationURL` with `mapping`.
    ///
    /// The same as `migrateStore(from:sourceType:options:with:toDestinationURL:destinationType:destinationOptions:)`.
    public func migrateStore(
        from sourceURL: URL,
        type sourceType: NSPersistentStore.StoreType,
        options sourceOptions: [AnyHashable: Any]? = nil,
        mapping: NSMappingModel,
        to destinationURL: URL,
        type destinationType: NSPersistentStore.StoreType,
        options destinationOptions: [AnyHashable: Any]? = nil
    ) throws {
        try migrateStore(
            from: sourceURL, sourceType: sourceType.rawValue, options: sourceOptions, with: mapping,
            toDestinationURL: destinationURL, destinationType: destinationType.rawValue, destinationOptions: destinationOptions
        )
    }

    /// Stops the running migration: `migrateStore` throws `error` once the current callback
    /// returns. It may be called from any thread.
    open func cancelMigrationWithError(_ error: Error) {
        cancellation = error
    }

    /// The error the migration was cancelled with, if it was.
    var cancellation: Error? {
        get { cancellationLock.withLock { storedCancellation } }
        set { cancellationLock.withLock { storedCancellation = newValue } }
    }

    /// Forgets the association tables and the contexts of earlier migrations; `migrateStore`
    /// starts with it.
    open func reset() {
        associations = MigrationAssociations()
        stacks = nil
        currentEntityMapping = NSEntityMapping()
        migrationProgress = 0
    }

    // MARK: Entities

    /// The source model's entity that a mapping reads.
    open func sourceEntity(for mEntity: NSEntityMapping) -> NSEntityDescription? {
        mEntity.sourceEntityName.flatMap { sourceModel.entitiesByName[$0] }
    }

    /// The destination model's entity that a mapping creates.
    open func destinationEntity(for mEntity: NSEntityMapping) -> NSEntityDescription? {
        mEntity.destinationEntityName.flatMap { destinationModel.entitiesByName[$0] }
    }

    // MARK: Associations

    /// Records that `destinationInstance` was made from `sourceInstance` by `entityMapping`, so
    /// that relationships can find it.
    open func associate(sourceInstance: NSManagedObject, withDestinationInstance destinationInstance: NSManagedObject, for entityMapping: NSEntityMapping) {
        associations.associate(sourceInstance, with: destinationInstance, mappingName: entityMapping.name ?? "")
    }

    /// The destination instances the named mapping created from `sourceInstances`; all of the
    /// mapping's destination instances when `sourceInstances` is nil.
    open func destinationInstances(forEntityMappingName mappingName: String, sourceInstances: [NSManagedObject]?) -> [NSManagedObject] {
        associations.destinations(mappingName: mappingName, sources: sourceInstances)
    }

    /// The source instances the named mapping created `destinationInstances` from; all of the
    /// mapping's source instances when `destinationInstances` is nil.
    open func sourceInstances(forEntityMappingName mappingName: String, destinationInstances: [NSManagedObject]?) -> [NSManagedObject] {
        associations.sources(mappingName: mappingName, destinations: destinationInstances)
    }
}
