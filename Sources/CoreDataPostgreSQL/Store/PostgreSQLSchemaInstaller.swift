import CoreData

/// Creates a store's tables in its database (schema), or checks those there against the model
/// and migrates them when the options ask for it, in one transaction holding an advisory lock
/// on the schema: servers that start at once install or migrate the store once, the others
/// waiting and then finding it done. A migration that fails leaves the store as it was.
///
/// A staged migration (`NSPersistentStoreStagedMigrationManagerOptionKey`) runs first, a
/// transaction per version step, under a second lock held across its steps: its handlers open
/// the store on connections of their own, which the installer's lock would keep waiting.
struct PostgreSQLSchemaInstaller {
    let store: PostgreSQLStore
    let model: NSManagedObjectModel
    let connection: PostgreSQLConnection

    /// The store's layout and metadata, and whether the metadata must record the model's
    /// version hashes at the next save (a store opened without version checks).
    struct Installed {
        let schema: SQLSchema
        let metadata: [String: Any]
        let recordsModelHashes: Bool
    }

    func install() throws -> Installed {
        try createSchema()
        try runStagedMigration()
        return try connection.transaction {
            try connection.execute("SELECT pg_advisory_xact_lock(hashtext(current_schema()))")
            let entities = SQLSchema.storeEntities(in: model, configuration: store.configurationName)
            // Every store gets this version's functions, a store made by an earlier one included.
            try connection.execute(PostgreSQLFunctions.definitions)
            guard var metadata = try Self.existingMetadata(in: connection) else {
                let schema = SQLSchema(entities: entities)
                let metadata = store.newStoreMetadata(for: model)
                try schema.create(in: connection, metadata: metadata, dialect: .postgreSQL)
                return Installed(schema: schema, metadata: metadata, recordsModelHashes: false)
            }
            if let migration = try AutomaticMigration.lightweightMigration(of: store, at: connection.location, metadata: metadata, to: model) {
                try migrate(from: migration.source, to: model, mapping: migration.mapping, metadata: metadata)
                metadata = try Self.existingMetadata(in: connection) ?? metadata
            }
            let ignoresVersions = store.isOptionSet(NSIgnorePersistentStoreVersioningOption)
            let isCompatible = store.isCompatible(metadata, with: model)
            guard isCompatible || ignoresVersions else { throw store.incompatibleVersionError(metadata, url: connection.location) }
            let layout = try storedLayout()
            let schema = SQLSchema(entities: entities, stored: layout)
            try schema.verify(against: layout, location: connection.location, requiringEveryColumn: !ignoresVersions)
            var recorded = metadata
            if !isCompatible {
                recorded.merge(store.newStoreMetadata(for: model).filter { $0.key != NSStoreUUIDKey }) { _, model in model }
            }
            return Installed(schema: schema, metadata: recorded, recordsModelHashes: !isCompatible)
        }
    }

    /// Creates the store's schema when it is missing. Servers starting at once may race to create
    /// it: the loser's error is no error. A role that may not create schemas uses one made for it.
    private func createSchema() throws {
        guard let schema = connection.address.schema, let quoted = PostgreSQLIdentifier.quoted(schema) else { return }
        let lookup = try connection.statement("SELECT COUNT(*) FROM pg_namespace WHERE nspname = ?")
        lookup.bind(.text(schema), at: 1)
        guard try lookup.readFirstRow({ $0.int64(at: 0) }) == 0 else { return }
        do {
            try connection.execute("CREATE SCHEMA IF NOT EXISTS \(quoted)")
        } catch where ["42P06", "23505"].contains(PostgreSQLErrors.sqlState(of: error)) {
            return
        }
    }

    /// Runs the stages of the store's staged migration manager, if it has one and the store
    /// needs them. Servers that start at once take turns: the first migrates, and the others find
    /// the store at a version no stage starts from, so that the handlers run once.
    private func runStagedMigration() throws {
        guard let manager = store.options?[NSPersistentStoreStagedMigrationManagerOptionKey] as? NSStagedMigrationManager,
              !store.isReadOnly else { return }
        // The two-key form keeps this lock apart from the installer's one-key lock on the schema.
        try connection.execute("SELECT pg_advisory_lock(hashtext(current_schema()), 1)")
        defer { try? connection.execute("SELECT pg_advisory_unlock(hashtext(current_schema()), 1)") }
        guard let metadata = try Self.existingMetadata(in: connection), !store.isCompatible(metadata, with: model) else { return }
        try StagedMigration(manager: manager, store: store, at: connection.location, destinationModel: model) { source, destination, mapping in
            try connection.transaction {
                try connection.execute("SELECT pg_advisory_xact_lock(hashtext(current_schema()))")
                try migrate(from: source, to: destination, mapping: mapping, metadata: try Self.existingMetadata(in: connection) ?? metadata)
            }
        }.run(metadata: metadata)
    }

    /// Runs the lightweight migration from `source` to `destination` in the connection's open
    /// transaction, with the SQLite store's planner in PostgreSQL's dialect.
    private func migrate(from source: NSManagedObjectModel, to destination: NSManagedObjectModel, mapping: NSMappingModel, metadata: [String: Any]) throws {
        source.freeze()
        destination.freeze()
        let planner = try SQLMigrationPlanner(
            source: SQLSchema(entities: SQLSchema.storeEntities(in: source, configuration: store.configurationName), stored: try storedLayout()),
            destination: SQLSchema(entities: SQLSchema.storeEntities(in: destination, configuration: store.configurationName)),
            mapping: mapping,
            metadata: metadata,
            destinationModel: destination,
            configuredEntities: destination.entities(forConfigurationName: store.configurationName) ?? destination.entities,
            dialect: .postgreSQL
        )
        CoreDataMetrics.migrations.increment()
        do {
            for step in try planner.steps() {
                try step.run(connection)
            }
        } catch let error as NSError where error.domain == NSCocoaErrorDomain && error.code == NSPersistentStoreOperationError {
            throw CoreDataError.make(
                NSMigrationError,
                "The migration of the PostgreSQL store at \(connection.location.absoluteString) failed; the store is unchanged.",
                userInfo: [NSURLErrorKey: connection.location, NSUnderlyingErrorKey: error]
            )
        }
    }

    /// The metadata of the store in the connection's schema; nil when there is none yet.
    static func existingMetadata(in connection: PostgreSQLConnection) throws -> [String: Any]? {
        let hasStore = try connection.statement("SELECT to_regclass('z_metadata') IS NOT NULL AND to_regclass('z_primarykey') IS NOT NULL")
            .readFirstRow { $0.int64(at: 0) != 0 } ?? false
        guard hasStore else { return nil }
        return try SQLMetadataTable.read(from: connection, storeType: NSPostgreSQLStoreType)
    }

    /// The entity numbers of `Z_PRIMARYKEY` and the columns of the schema's tables, in upper
    /// case as the layout names them (PostgreSQL keeps unquoted names in lower case).
    private func storedLayout() throws -> SQLSchema.StoredLayout {
        var numbers: [String: Int64] = [:]
        let entities = try connection.statement("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY")
        while try entities.step() {
            if let name = entities.string(at: 1) { numbers[name] = entities.int64(at: 0) }
        }
        var columnsByTable: [String: Set<String>] = [:]
        let columns = try connection.statement("SELECT upper(table_name), upper(column_name) FROM information_schema.columns WHERE table_schema = current_schema()")
        while try columns.step() {
            if let table = columns.string(at: 0), let column = columns.string(at: 1) {
                columnsByTable[table, default: []].insert(column)
            }
        }
        return SQLSchema.StoredLayout(numbersByName: numbers, columnsByTable: columnsByTable)
    }
}
