import CoreData

// Saving into the PostgreSQL store: keys reserved before the save's transaction, then one
// transaction writing deletes, inserts (many rows per statement), updates, to-many changes and
// lock checks, with optimistic locking on Z_OPT.
extension PostgreSQLStore {
    func obtainPermanentIDs(for objects: [NSManagedObject]) throws -> [NSManagedObjectID] {
        let (connection, schema) = try readingDatabase()
        return try permanentIDs(for: objects.map(\.entity), connection: connection, schema: schema)
    }

    func beginSave(_ changes: StoreSaveChanges) throws -> StoreSaveOutcome {
        let (connection, schema) = try readingDatabase()
        var result = StoreSaveResult()
        let unnumbered = changes.inserts.indices.filter { changes.inserts[$0].objectID?.isTemporaryID ?? true }
        var reserved = try permanentIDs(for: unnumbered.map { changes.inserts[$0].entity }, connection: connection, schema: schema).makeIterator()
        result.permanentIDs = changes.inserts.map { insert in
            if let permanent = insert.objectID, !permanent.isTemporaryID { return permanent }
            return reserved.next()!
        }
        try connection.begin()
        do {
            try write(changes, permanentIDs: result.permanentIDs, connection: connection, schema: schema)
            pendingMetadata = changes.metadata.map(completedMetadata)
            return .written(result)
        } catch {
            connection.rollback()
            pendingMetadata = nil
            guard let conflict = error as? VersionConflict else { throw saveError(error) }
            return .conflict(conflict)
        }
    }

    func finishSave(committing: Bool) throws {
        let (connection, _) = try readingDatabase()
        defer { pendingMetadata = nil }
        guard committing else {
            connection.rollback()
            return
        }
        do {
            try connection.commit()
        } catch {
            throw saveError(error)
        }
        if let metadata = pendingMetadata {
            storedMetadata = metadata
            metadataChanged = false
        }
    }

    /// New permanent IDs for objects of the given entities, from reserved key blocks.
    private func permanentIDs(for entities: [NSEntityDescription], connection: PostgreSQLConnection, schema: SQLSchema) throws -> [NSManagedObjectID] {
        let roots = try entities.map { entity in
            guard let root = schema.mapping(for: entity.rootEntity)?.number else {
                throw CoreDataError.make(NSPersistentStoreSaveError, "The entity \(entity.entityName) is not stored in this PostgreSQL store.")
            }
            return root
        }
        try keyBlocks.reserve(Dictionary(roots.map { ($0, 1) }, uniquingKeysWith: +), connection: connection)
        return zip(entities, roots).map { entity, root in objectID(for: entity, primaryKey: keyBlocks.next(forRoot: root)!) }
    }

    private func write(_ changes: StoreSaveChanges, permanentIDs: [NSManagedObjectID], connection: PostgreSQLConnection, schema: SQLSchema) throws {
        if let metadata = changes.metadata {
            try SQLMetadataTable.write(completedMetadata(metadata), to: connection)
        }
        // Deletes first, so that a row this save inserts may take a unique value a deleted row held.
        for row in changes.deletes {
            guard let mapping = schema.mapping(for: row.objectID.entity), let primaryKey = row.objectID.primaryKey else { continue }
            try delete(row, primaryKey: primaryKey, mapping: mapping, connection: connection, schema: schema)
        }
        let keys = SavePrimaryKeys(inserts: changes.inserts, permanentIDs: permanentIDs)
        try insert(changes.inserts, permanentIDs: permanentIDs, keys: keys, connection: connection, schema: schema)
        for row in changes.updates {
            guard let mapping = schema.mapping(for: row.objectID.entity), let primaryKey = row.objectID.primaryKey else { continue }
            let assignments = try SQLRowEncoding.assignments(of: row.values, slots: row.changedSlots, mapping: mapping, keys: keys, schema: schema, encode: { try SQLValueCodec.encode($0, for: $1) })
            try update(row, primaryKey: primaryKey, with: assignments, mapping: mapping, connection: connection)
        }
        for change in changes.toManyChanges {
            try apply(change, keys: keys, connection: connection, schema: schema)
        }
        for row in changes.lockChecks {
            try checkVersion(of: row, connection: connection, schema: schema)
        }
        let notification = try connection.statement("SELECT pg_notify(?, '')")
        notification.bind(.text(commitChannel), at: 1)
        try notification.run()
    }

    /// Inserts rows, consecutive rows of one entity by one statement of many rows (a round trip
    /// to the server per row would cost more than the rows themselves).
    private func insert(_ inserts: [RowInsert], permanentIDs: [NSManagedObjectID], keys: SavePrimaryKeys, connection: PostgreSQLConnection, schema: SQLSchema) throws {
        var start = inserts.startIndex
        while start < inserts.endIndex {
            let entity = inserts[start].entity
            guard let mapping = schema.mapping(for: entity) else {
                throw CoreDataError.make(NSPersistentStoreSaveError, "The entity \(entity.entityName) is not stored in this PostgreSQL store.")
            }
            let slots = mapping.storedSlots
            var columns: [String] = []
            var values: [SQLValue] = []
            var rowCount = 0
            var end = start
            while end < inserts.endIndex, inserts[end].entity === entity, values.count < Self.maximumParameters {
                let assignments = try SQLRowEncoding.assignments(of: inserts[end].values, slots: slots, mapping: mapping, keys: keys, schema: schema, encode: { try SQLValueCodec.encode($0, for: $1) })
                if columns.isEmpty { columns = ["Z_PK", "Z_ENT", "Z_OPT"] + assignments.map(\.column) }
                values += [.integer(permanentIDs[end].primaryKey ?? 0), .integer(mapping.number), .integer(1)] + assignments.map(\.value)
                rowCount += 1
                end += 1
            }
            let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
            let statement = try connection.statement("INSERT INTO \(mapping.table) (\(columns.joined(separator: ", "))) VALUES \(Array(repeating: row, count: rowCount).joined(separator: ", "))")
            statement.bind(values)
            try statement.run()
            start = end
        }
    }

    /// A failed save's error: the database's refusal of a unique value is a constraint
    /// conflict (133021), anything else a failed save (134030).
    private func saveError(_ error: any Error) -> NSError {
        let state = PostgreSQLErrors.sqlState(of: error)
        let code = state == "23505" ? NSManagedObjectConstraintMergeError : NSPersistentStoreSaveError
        return PostgreSQLErrors.make(code, "The PostgreSQL store could not save: \(PostgreSQLErrors.reason(of: (error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error ?? error))", location: url, underlying: error)
    }
}
