import CoreData

/// Creates a store's tables in its database (schema), or checks those there against the model,
/// in one transaction holding an advisory lock on the schema: servers that start at once
/// install the store once, the others waiting and then finding it.
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
        try connection.transaction {
            try connection.execute("SELECT pg_advisory_xact_lock(hashtext(current_schema()))")
            let entities = SQLSchema.storeEntities(in: model, configuration: store.configurationName)
            guard let metadata = try Self.existingMetadata(in: connection) else {
                let schema = SQLSchema(entities: entities)
                let metadata = store.newStoreMetadata(for: model)
                try connection.execute(PostgreSQLFunctions.definitions)
                try schema.create(in: connection, metadata: metadata, dialect: .postgreSQL)
                return Installed(schema: schema, metadata: metadata, recordsModelHashes: false)
            }
            let ignoresVersions = store.isOptionSet(NSIgnorePersistentStoreVersioningOption)
            let isCompatible = store.isCompatible(metadata, with: model)
            guard isCompatible || ignoresVersions else { throw store.incompatibleVersionError(metadata, url: connection.location) }
            let schema = SQLSchema(entities: entities, stored: try storedLayout())
            try schema.verify(against: try storedLayout(), location: connection.location, requiringEveryColumn: !ignoresVersions)
            var recorded = metadata
            if !isCompatible {
                recorded.merge(store.newStoreMetadata(for: model).filter { $0.key != NSStoreUUIDKey }) { _, model in model }
            }
            return Installed(schema: schema, metadata: recorded, recordsModelHashes: !isCompatible)
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
