/// A lightweight migration of a SQLite store file, run in place in one transaction: killing the
/// process at any moment leaves either the old store, intact, or the migrated one.
struct SQLiteInPlaceMigration {
    let url: URL
    let sourceModel: NSManagedObjectModel
    let destinationModel: NSManagedObjectModel
    let mapping: NSMappingModel
    let configuration: String?
    /// Whether the write-ahead log stays for a store that opens the file next, rather than being
    /// checkpointed into the file when the migration closes it.
    var keepsWriteAheadLog = true
    /// Whether the migration postpones its expensive cleanup (dropping removed columns and
    /// tables, creating non-unique indexes) until `finishDeferredLightweightMigration()`.
    var defersCleanup = false

    /// The steps the migration runs, in order.
    func plan() throws -> [SQLMigrationStep] {
        sourceModel.freeze()
        destinationModel.freeze()
        let (metadata, layout) = try SQLiteStore.inspect(url)
        let sourceEntities = SQLSchema.storeEntities(in: sourceModel, configuration: configuration)
        let destinationEntities = SQLSchema.storeEntities(in: destinationModel, configuration: configuration)
        let planner = try SQLMigrationPlanner(
            source: SQLSchema(entities: sourceEntities, stored: layout),
            destination: SQLSchema(entities: destinationEntities),
            mapping: mapping,
            metadata: metadata,
            destinationModel: destinationModel,
            configuredEntities: destinationModel.entities(forConfigurationName: configuration) ?? destinationModel.entities,
            defersCleanup: defersCleanup
        )
        return try planner.steps()
    }

    /// Runs the migration. Its progress (a unit per step) is a child of the current `Progress`
    /// when the caller made one current, so that a caller can follow it.
    func run() throws {
        try run(plan())
    }

    /// Runs steps already planned, for a file with the same metadata as the one they were
    /// planned on (a copy of it).
    func run(_ steps: [SQLMigrationStep]) throws {
        CoreDataMetrics.migrations.increment()
        let progress = Progress(totalUnitCount: Int64(steps.count))
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: url.path, readOnly: false, create: false)
        } catch {
            throw CoreDataError.storeOpen(url, "SQLite could not open the file to migrate it.", underlying: error)
        }
        defer { connection.close() }
        try connection.execute("PRAGMA journal_mode = WAL")
        if keepsWriteAheadLog {
            // The store opens the file right after; it reads the log, and checkpoints when it closes.
            connection.keepWriteAheadLogOnClose()
        }
        do {
            try connection.transaction {
                for step in steps {
                    try step.run(connection)
                    progress.completedUnitCount += 1
                }
            }
        } catch let error as NSError where error.domain == NSCocoaErrorDomain && error.code == NSSQLiteError {
            throw CoreDataError.make(
                NSMigrationError,
                "The migration of the store at \(url.path) failed; the store is unchanged.",
                userInfo: [NSURLErrorKey: url, NSUnderlyingErrorKey: error]
            )
        }
    }
}
