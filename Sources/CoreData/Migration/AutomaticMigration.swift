/// The migration a coordinator runs when it adds a store written with another model version and
/// the options ask for it (`NSMigratePersistentStoresAutomaticallyOption`, with
/// `NSInferMappingModelAutomaticallyOption` for an inferred mapping): find the model the store
/// was written with, infer the mapping, and migrate the file in place.
package enum AutomaticMigration {
    /// Migrates the file of a store about to be loaded when its metadata does not match `model`.
    /// Stores without files, matching stores and stores opened without the migration option are
    /// left alone (the store's own check then reports an incompatible version as 134100).
    ///
    /// A staged migration manager in the options (`NSPersistentStoreStagedMigrationManagerOptionKey`)
    /// runs its stages first; the inferred migration then takes the store the rest of the way,
    /// deferring its cleanup when the options set `NSPersistentStoreDeferredLightweightMigrationOptionKey`.
    ///
    /// Atomic stores (binary, XML, and registered subclasses that read their metadata without a
    /// coordinator) migrate through the inferred mapping only; staged migrations are the
    /// relational stores'. A store on a database server migrates itself as it loads.
    static func migrateIfNeeded(_ store: NSPersistentStore, to model: NSManagedObjectModel) throws {
        guard let url = store.url, !store.isOptionSet(NSIgnorePersistentStoreVersioningOption) else { return }
        if store.type == NSSQLiteStoreType {
            try migrateSQLiteStoreIfNeeded(store, at: url, to: model)
        } else if store is NSAtomicStore, store.isOptionSet(NSMigratePersistentStoresAutomaticallyOption),
                  FileManager.default.fileExists(atPath: url.path),
                  let metadata = try? type(of: store).metadataForPersistentStore(with: url) {
            guard try needsMigration(store, at: url, metadata: metadata, to: model) else { return }
            let (sourceModel, mapping) = try inferredMigration(of: store, at: url, metadata: metadata, to: model)
            try AtomicStoreMigration(store: store, url: url, metadata: metadata, sourceModel: sourceModel, destinationModel: model, mapping: mapping).run()
        }
    }

    /// The model a store's metadata was written with, and the mapping model from it to
    /// `model`, for a store that migrates itself as it loads (a store on a database server,
    /// which no coordinator migrates before): nil when the store matches `model` or its options
    /// do not ask for automatic migration.
    ///
    /// - Throws: `NSMigrationMissingSourceModelError` (134130) when no model the program has
    ///   matches the metadata; the errors of finding or inferring the mapping model.
    package static func lightweightMigration(of store: NSPersistentStore, at url: URL, metadata: [String: Any], to model: NSManagedObjectModel) throws -> (source: NSManagedObjectModel, mapping: NSMappingModel)? {
        guard store.isOptionSet(NSMigratePersistentStoresAutomaticallyOption), try needsMigration(store, at: url, metadata: metadata, to: model) else { return nil }
        return try inferredMigration(of: store, at: url, metadata: metadata, to: model)
    }

    /// Whether a store whose file holds `metadata` must migrate to `model`.
    ///
    /// - Throws: `NSPersistentStoreIncompatibleVersionHashError` (134100) when it must but is
    ///   opened read-only.

    private static func needsMigration(_ store: NSPersistentStore, at url: URL, metadata: [String: Any], to model: NSManagedObjectModel) throws -> Bool {
        guard !store.isCompatible(metadata, with: model) else { return false }
        guard !store.isReadOnly else {
            throw CoreDataError.make(NSPersistentStoreIncompatibleVersionHashError, "The store at \(url.path) needs a migration but is opened read-only.", userInfo: [NSURLErrorKey: url])
        }
        return true
    }

    /// The model a store was written with and the mapping from it to `model`.
    ///
    /// - Throws: `NSMigrationMissingSourceModelError` (134130) when no model the program has
    ///   matches the store; `NSMigrationMissingMappingModelError` (134140) when no mapping can
    ///   be inferred or inference is off.
    private static func inferredMigration(of store: NSPersistentStore, at url: URL, metadata: [String: Any], to model: NSManagedObjectModel) throws -> (NSManagedObjectModel, NSMappingModel) {
        guard let sourceModel = sourceModel(for: metadata, configuration: store.modelConfiguration, besides: model) else {
            throw CoreDataError.make(
                NSMigrationMissingSourceModelError,
                "Can't find model for source store at \(url.path): no model version the program has matches its version hashes.",
                userInfo: [NSURLErrorKey: url, "metadata": metadata]
            )
        }
        let mapping = try mappingModel(from: sourceModel, to: model, inferring: store.isOptionSet(NSInferMappingModelAutomaticallyOption), url: url)
        return (sourceModel, mapping)
    }

    private static func migrateSQLiteStoreIfNeeded(_ store: NSPersistentStore, at url: URL, to model: NSManagedObjectModel) throws {
        let stagedManager = store.options?[NSPersistentStoreStagedMigrationManagerOptionKey] as? NSStagedMigrationManager
        guard stagedManager != nil || store.isOptionSet(NSMigratePersistentStoresAutomaticallyOption),
              var metadata = try SQLiteStore.existingContents(url)?.metadata else { return }
        let configuration = store.modelConfiguration
        guard try needsMigration(store, at: url, metadata: metadata, to: model) else { return }
        if let stagedManager {
            try StagedMigration(manager: stagedManager, store: store, at: url, destinationModel: model) { source, destination, mapping in
                try SQLiteInPlaceMigration(url: url, sourceModel: source, destinationModel: destination, mapping: mapping, configuration: configuration).run()
            }.run(metadata: metadata)
            metadata = try SQLiteStore.readMetadata(at: url)
            guard !store.isCompatible(metadata, with: model),
                  store.isOptionSet(NSMigratePersistentStoresAutomaticallyOption) else { return }
        }
        let (sourceModel, mapping) = try inferredMigration(of: store, at: url, metadata: metadata, to: model)
        var migration = SQLiteInPlaceMigration(url: url, sourceModel: sourceModel, destinationModel: model, mapping: mapping, configuration: configuration)
        migration.defersCleanup = store.isOptionSet(NSPersistentStoreDeferredLightweightMigrationOptionKey)
        try migration.run()
    }

    /// The model a store with `metadata` was written with: a version of the model file the given
    /// model was read from, or any version of any model the program ships
    /// (`NSManagedObjectModel.mergedModel(from:forStoreMetadata:)`).
    static func sourceModel(for metadata: [String: Any], configuration: String?, besides model: NSManagedObjectModel) -> NSManagedObjectModel? {
        let siblings = ModelBundle.siblingVersions(of: model)
        if let sibling = siblings.first(where: { $0.isConfiguration(withName: configuration, compatibleWithStoreMetadata: metadata) }) {
            return sibling
        }
        return NSManagedObjectModel.mergedModel(from: nil, forStoreMetadata: metadata, configuration: configuration)
    }

    /// The mapping between two models: inferred when allowed, as Linux has no compiled mapping
    /// models to look up.
    static func mappingModel(from source: NSManagedObjectModel, to destination: NSManagedObjectModel, inferring: Bool, url: URL) throws -> NSMappingModel {
        guard inferring else {
            throw CoreDataError.make(NSMigrationMissingMappingModelError, "Can't find mapping model for migration of the store at \(url.path) (inference is off).", userInfo: [NSURLErrorKey: url])
        }
        do {
            return try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination)
        } catch let error as NSError {
            throw CoreDataError.make(
                NSMigrationMissingMappingModelError,
                "Can't find or automatically infer mapping model for migration of the store at \(url.path): \(CoreDataError.reason(of: error))",
                userInfo: [NSURLErrorKey: url, NSUnderlyingErrorKey: error]
            )
        }
    }
}
