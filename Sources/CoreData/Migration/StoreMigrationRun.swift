/// One call of `NSMigrationManager.migrateStore`: opens the source store, then either migrates a
/// copy of a SQLite file in SQL or runs the mapping on objects and saves the destination store.
/// A failure leaves the destination as it was (a destination the run created is deleted) and
/// never touches the source.
struct StoreMigrationRun {
    struct Location {
        let url: URL
        let type: String
        let options: [AnyHashable: Any]?
    }

    let manager: NSMigrationManager
    let source: Location
    let destination: Location

    func perform() throws {
        let progress = Progress(totalUnitCount: 1_000)
        manager.progress = progress
        defer { manager.progress = nil }
        let sourceCoordinator = manager.migrationStacks.source.coordinator
        let sourceStore = try openSource(in: sourceCoordinator)
        defer { try? sourceCoordinator.remove(sourceStore) }
        if try !migrateCopyInPlace(progress: progress) {
            try migrateObjects()
        }
        progress.completedUnitCount = progress.totalUnitCount
    }

    /// Opens the source store read-only: the migration never changes it, not even its journal mode.
    private func openSource(in coordinator: NSPersistentStoreCoordinator) throws -> NSPersistentStore {
        guard source.type == NSInMemoryStoreType || StoreRegistry.hasStore(type: source.type, at: source.url, options: source.options) else {
            throw CoreDataError.make(NSMigrationManagerSourceStoreError, "There is no source store at \(source.url.path).", userInfo: [NSURLErrorKey: source.url])
        }
        var options = source.options ?? [:]
        options[NSReadOnlyPersistentStoreOption] = true
        return try open(Location(url: source.url, type: source.type, options: options), in: coordinator, failure: NSMigrationManagerSourceStoreError)
    }

    /// Runs the mapping on objects and saves the destination; a destination the run created is
    /// deleted when the run fails.
    private func migrateObjects() throws {
        let destinationExisted = destination.type != NSInMemoryStoreType && StoreRegistry.hasStore(type: destination.type, at: destination.url, options: destination.options)
        let discardNewDestination = {
            if !destinationExisted { try? StoreRegistry.destroy(type: destination.type, at: destination.url, options: destination.options) }
        }
        let coordinator = manager.migrationStacks.destination.coordinator
        let destinationStore: NSPersistentStore
        do {
            destinationStore = try open(destination, in: coordinator, failure: NSMigrationManagerDestinationStoreError)
        } catch {
            discardNewDestination()
            throw error
        }
        do {
            try ObjectMigration(manager: manager).run()
        } catch {
            try? coordinator.remove(destinationStore)
            discardNewDestination()
            throw error
        }
        try coordinator.remove(destinationStore)
    }

    private func open(_ location: Location, in coordinator: NSPersistentStoreCoordinator, failure code: Int) throws -> NSPersistentStore {
        do {
            return try coordinator.addPersistentStore(ofType: location.type, configurationName: nil, at: location.url, options: location.options)
        } catch {
            let side = code == NSMigrationManagerSourceStoreError ? "source" : "destination"
            throw CoreDataError.make(
                code,
                "The migration's \(side) store at \(location.url.path) could not be opened: \(CoreDataError.reason(of: error))",
                userInfo: [NSURLErrorKey: location.url, NSUnderlyingErrorKey: error as NSError]
            )
        }
    }

    /// Migrates a copy of the source file in SQL when both stores are SQLite stores, the
    /// destination is new and the mapping needs no objects; false when it does not apply.
    private func migrateCopyInPlace(progress: Progress) throws -> Bool {
        guard manager.usesStoreSpecificMigrationManager, source.type == NSSQLiteStoreType, destination.type == NSSQLiteStoreType,
              source.url.standardizedFileURL != destination.url.standardizedFileURL,
              !SQLiteStore.fileHasContent(destination.url) else { return false }
        let inPlace = { url in
            var migration = SQLiteInPlaceMigration(url: url, sourceModel: manager.sourceModel, destinationModel: manager.destinationModel, mapping: manager.mappingModel, configuration: nil)
            // Nothing opens the destination next: its data belongs in the file itself.
            migration.keepsWriteAheadLog = false
            return migration
        }
        let steps: [SQLMigrationStep]
        do {
            steps = try inPlace(source.url).plan()
        } catch is SQLMigrationPlanner.NeedsObjects {
            return false
        }
        do {
            try SQLiteStore.replaceFiles(at: destination.url, withCopyOf: source.url)
            progress.becomeCurrent(withPendingUnitCount: progress.totalUnitCount)
            defer { progress.resignCurrent() }
            try inPlace(destination.url).run(steps)
        } catch {
            try? SQLiteStore.destroyStore(at: destination.url)
            throw error
        }
        return true
    }
}
