// Saving into a relational store, the parts every database shares: optimistic locking on
// `Z_OPT`, updates and deletes of rows, join-table and ordering upkeep, and the metadata a save
// writes. Each store wraps them in its own transaction and adds what its database needs.
extension RelationalStore {
    /// Application metadata with the keys the store needs kept: its UUID, type and model hashes.
    package func completedMetadata(_ metadata: [String: Any]) -> [String: Any] {
        var completed = metadata
        for key in [NSStoreUUIDKey, NSStoreTypeKey, NSStoreModelVersionHashesKey, StoreMetadataKey.hashesVersion] where completed[key] == nil {
            completed[key] = storedMetadata[key]
        }
        return completed
    }

    /// Fails with a conflict when an unchanged row has another version now.
    func checkVersion(of row: RowChange, connection: Database, schema: SQLSchema) throws {
        guard let mapping = schema.mapping(for: row.objectID.entity), let primaryKey = row.objectID.primaryKey else { return }
        let stored = try storedVersion(of: primaryKey, mapping: mapping, connection: connection)
        if stored != row.version {
            throw VersionConflict(objectID: row.objectID, readVersion: row.version, storedVersion: stored)
        }
    }

    /// Updates a row's columns and its version, failing with a conflict when the row has
    /// another version now, or is gone.
    package func update(_ row: RowChange, primaryKey: Int64, with assignments: [(column: String, value: SQLValue)], mapping: SQLSchema.EntityMapping, connection: Database) throws {
        let sets = Self.versionedAssignments(of: assignments.map(\.column))
        let statement = try connection.statement("UPDATE \(mapping.table) SET \(sets) WHERE Z_PK = ? AND Z_OPT = ?")
        statement.bind(assignments.map(\.value) + [.integer(primaryKey), .integer(row.version)])
        try statement.run()
        if connection.changes == 0 {
            let stored = try storedVersion(of: primaryKey, mapping: mapping, connection: connection)
            throw VersionConflict(objectID: row.objectID, readVersion: row.version, storedVersion: stored)
        }
    }

    /// Deletes a row and its join-table rows, failing with a conflict when the row has another
    /// version now; a row that is gone already is no conflict.
    package func delete(_ row: RowChange, primaryKey: Int64, mapping: SQLSchema.EntityMapping, connection: Database, schema: SQLSchema) throws {
        let statement = try connection.statement("DELETE FROM \(mapping.table) WHERE Z_PK = ? AND Z_OPT = ?")
        statement.bind([.integer(primaryKey), .integer(row.version)])
        try statement.run()
        if connection.changes == 0, let stored = try storedVersion(of: primaryKey, mapping: mapping, connection: connection) {
            throw VersionConflict(objectID: row.objectID, readVersion: row.version, storedVersion: stored)
        }
        for relationship in row.objectID.entity.relationshipsByName.values {
            guard let joinTable = schema.joinTable(for: relationship) else { continue }
            let statement = try connection.statement("DELETE FROM \(joinTable.name) WHERE \(joinTable.columns(for: relationship).source) = ?")
            statement.bind(primaryKey, at: 1)
            try statement.run()
        }
    }

    /// The `SET` list that gives each column a parameter and the row a new version.
    package static func versionedAssignments(of columns: [String]) -> String {
        (["Z_OPT = Z_OPT + 1"] + columns.map { "\($0) = ?" }).joined(separator: ", ")
    }

    /// The optimistic-locking version of a row now; nil when the row is gone.
    func storedVersion(of primaryKey: Int64, mapping: SQLSchema.EntityMapping, connection: Database) throws -> Int64? {
        let statement = try connection.statement("SELECT Z_OPT FROM \(mapping.table) WHERE Z_PK = ?")
        statement.bind(primaryKey, at: 1)
        return try statement.readFirstRow { $0.int64(at: 0) }
    }

    // MARK: To-many relationships

    package func apply(_ change: ToManyChange, keys: SavePrimaryKeys, connection: Database, schema: SQLSchema) throws {
        guard let owner = keys.key(for: change.owner) else { return }
        if let joinTable = schema.joinTable(for: change.relationship) {
            let columns = joinTable.columns(for: change.relationship)
            for destination in change.removed.compactMap(keys.key(for:)) {
                let statement = try connection.statement("DELETE FROM \(joinTable.name) WHERE \(columns.source) = ? AND \(columns.destination) = ?")
                statement.bind(owner, at: 1)
                statement.bind(destination, at: 2)
                try statement.run()
            }
            for destination in change.added.compactMap(keys.key(for:)) {
                let statement = try connection.statement(dialect.insertIgnoringDuplicates(into: joinTable.name, columns: [columns.source, columns.destination]))
                statement.bind(owner, at: 1)
                statement.bind(destination, at: 2)
                try statement.run()
            }
            if let ordered = change.orderedDestinations, let orderColumn = joinTable.orderColumns[columns.destination] {
                for (index, destination) in ordered.compactMap(keys.key(for:)).enumerated() {
                    let statement = try connection.statement("UPDATE \(joinTable.name) SET \(orderColumn) = ? WHERE \(columns.source) = ? AND \(columns.destination) = ?")
                    statement.bind(Self.orderPosition(index), at: 1)
                    statement.bind(owner, at: 2)
                    statement.bind(destination, at: 3)
                    try statement.run()
                }
            }
        } else if let ordered = change.orderedDestinations, let orderColumn = schema.orderColumn(for: change.relationship),
                  let destination = change.relationship.destinationEntity, let mapping = schema.mapping(for: destination) {
            for (index, key) in ordered.compactMap(keys.key(for:)).enumerated() {
                let statement = try connection.statement("UPDATE \(mapping.table) SET \(orderColumn) = ? WHERE Z_PK = ?")
                statement.bind(Self.orderPosition(index), at: 1)
                statement.bind(key, at: 2)
                try statement.run()
            }
        }
    }

    /// Ordered positions are sparse, as Apple writes them: 2048, 3072, 4096, …
    private static func orderPosition(_ index: Int) -> Int64 {
        Int64(index + 2) * 1024
    }
}
