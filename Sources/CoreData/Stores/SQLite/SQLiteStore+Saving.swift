// Saving into the SQLite store: one transaction per save, primary keys from Z_PRIMARYKEY, rows
// inserted through prepared plans, and external binary files; optimistic locking, updates,
// deletes and to-many upkeep are the relational stores' (`RelationalStore+Saving`).
extension SQLiteStore {
    func obtainPermanentIDs(for objects: [NSManagedObject]) throws -> [NSManagedObjectID] {
        let (connection, schema) = try writingDatabase()
        return try connection.transaction {
            var allocator = PrimaryKeyAllocator(connection: connection, schema: schema)
            let identifiers = try objects.map { objectID(for: $0.entity, primaryKey: try allocator.next(for: $0.entity)) }
            try allocator.commit()
            return identifiers
        }
    }

    func beginSave(_ changes: StoreSaveChanges) throws -> StoreSaveOutcome {
        let (connection, schema) = try writingDatabase()
        var files = ExternalFileChanges()
        try connection.execute("BEGIN IMMEDIATE")
        do {
            let result = try write(changes, connection: connection, schema: schema, files: &files)
            pendingSave = PendingSave(files: files, metadata: changes.metadata.map(completedMetadata))
            return .written(result)
        } catch {
            try? connection.execute("ROLLBACK")
            external.remove(files.written)
            guard let conflict = error as? VersionConflict else { throw error }
            return .conflict(conflict)
        }
    }

    func finishSave(committing: Bool) throws {
        let (connection, _) = try writingDatabase()
        guard let pending = pendingSave else { return }
        pendingSave = nil
        if committing {
            do {
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                external.remove(pending.files.written)
                throw error
            }
            external.remove(pending.files.obsolete)
            if let metadata = pending.metadata {
                storedMetadata = metadata
                metadataChanged = false
            }
        } else {
            try? connection.execute("ROLLBACK")
            external.remove(pending.files.written)
        }
    }

    /// What a save in progress must finish once it commits or rolls back.
    struct PendingSave {
        let files: ExternalFileChanges
        let metadata: [String: Any]?
    }

    private func write(_ changes: StoreSaveChanges, connection: SQLiteConnection, schema: SQLSchema, files: inout ExternalFileChanges) throws -> StoreSaveResult {
        if let metadata = changes.metadata {
            try SQLMetadataTable.write(completedMetadata(metadata), to: connection)
        }
        var allocator = PrimaryKeyAllocator(connection: connection, schema: schema)
        var result = StoreSaveResult()
        result.permanentIDs.reserveCapacity(changes.inserts.count)
        // By index, not by element: a copy of each row would retain its entity, ID and values.
        for index in changes.inserts.indices {
            if let permanent = changes.inserts[index].objectID, !permanent.isTemporaryID {
                result.permanentIDs.append(permanent)
            } else {
                let entity = changes.inserts[index].entity
                result.permanentIDs.append(objectID(for: entity, primaryKey: try allocator.next(for: entity)))
            }
        }
        try allocator.commit()
        // Deletes go first: the uniqueness check leaves the save's deleted rows out, so a row
        // this save inserts or updates may take a unique value a deleted row holds, which the
        // unique index accepts only once that row is gone.
        for row in changes.deletes {
            try delete(row, connection: connection, schema: schema, files: &files)
        }
        let keys = SavePrimaryKeys(inserts: changes.inserts, permanentIDs: result.permanentIDs)
        // Consecutive rows are mostly of one entity: their plan is looked up once.
        var lastPlan: SQLiteInsertPlan?
        for index in changes.inserts.indices {
            let entity = changes.inserts[index].entity
            let plan = try lastPlan.flatMap { $0.entity === entity ? $0 : nil } ?? insertPlan(for: entity, connection: connection, schema: schema)
            lastPlan = plan
            try insert(changes.inserts[index], primaryKey: result.permanentIDs[index].primaryKey ?? 0, plan: plan, keys: keys, schema: schema, files: &files)
        }
        for row in changes.updates {
            try update(row, keys: keys, connection: connection, schema: schema, files: &files)
        }
        for change in changes.toManyChanges {
            try apply(change, keys: keys, connection: connection, schema: schema)
        }
        for row in changes.lockChecks {
            try checkVersion(of: row, connection: connection, schema: schema)
        }
        try recordHistory(of: changes, permanentIDs: result.permanentIDs)
        return result
    }

    // MARK: Rows

    private func insert(_ row: RowInsert, primaryKey: Int64, plan: SQLiteInsertPlan, keys: SavePrimaryKeys, schema: SQLSchema, files: inout ExternalFileChanges) throws {
        let statement = plan.statement
        statement.reset()
        statement.bind(primaryKey, at: 1)
        statement.bind(plan.entityNumber, at: 2)
        statement.bind(Int64(1), at: 3)
        var index: Int32 = 4
        let values = row.values
        for field in plan.fields {
            switch field.binding {
            case .direct(let type, let scalar):
                statement.bind(SQLValueCodec.encode(slot: field.slot, of: values, type: type, scalar: scalar), at: index)
                index += 1
            case .encoded(let attributeIndex):
                statement.bind(try encode(values[field.slot], attribute: plan.encodedAttributes[attributeIndex], files: &files), at: index)
                index += 1
            case .toOne(let hasTypedColumn):
                let destination = values[field.slot] as? NSManagedObjectID
                if let key = destination.flatMap(keys.key(for:)) { statement.bind(key, at: index) } else { statement.bindNull(at: index) }
                index += 1
                if hasTypedColumn {
                    if let number = destination.flatMap({ schema.mapping(for: $0.entity)?.number }) { statement.bind(number, at: index) } else { statement.bindNull(at: index) }
                    index += 1
                }
            case .composite(let leavesIndex):
                for value in try SQLRowEncoding.leafValues(of: values[field.slot], leaves: plan.compositeLeaves[leavesIndex]) {
                    statement.bind(value, at: index)
                    index += 1
                }
            }
        }
        try statement.run()
    }

    /// The prepared INSERT of an entity and how to bind a row to it, built once per entity.
    private func insertPlan(for entity: NSEntityDescription, connection: SQLiteConnection, schema: SQLSchema) throws -> SQLiteInsertPlan {
        if let plan = queryCache.insertPlan(for: entity) { return plan }
        guard let mapping = schema.mapping(for: entity) else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The entity \(entity.entityName) is not stored in this SQLite store.")
        }
        let plan = try SQLiteInsertPlan(entity: entity, mapping: mapping, connection: connection)
        queryCache.setInsertPlan(plan, for: entity)
        return plan
    }

    private func update(_ row: RowChange, keys: SavePrimaryKeys, connection: SQLiteConnection, schema: SQLSchema, files: inout ExternalFileChanges) throws {
        guard let mapping = schema.mapping(for: row.objectID.entity), let primaryKey = row.objectID.primaryKey else { return }
        files.obsolete += try externalFiles(of: primaryKey, slots: Array(row.changedSlots), mapping: mapping, connection: connection)
        let assignments = try SQLRowEncoding.assignments(of: row.values, slots: row.changedSlots, mapping: mapping, keys: keys, schema: schema) {
            try encode($0, attribute: $1, files: &files)
        }
        try update(row, primaryKey: primaryKey, with: assignments, mapping: mapping, connection: connection)
    }

    private func delete(_ row: RowChange, connection: SQLiteConnection, schema: SQLSchema, files: inout ExternalFileChanges) throws {
        guard let mapping = schema.mapping(for: row.objectID.entity), let primaryKey = row.objectID.primaryKey else { return }
        files.obsolete += try externalFiles(of: primaryKey, slots: row.objectID.entity.layout.persistentAttributeSlots, mapping: mapping, connection: connection)
        try delete(row, primaryKey: primaryKey, mapping: mapping, connection: connection, schema: schema)
    }

    func encode(_ value: Any?, attribute: NSAttributeDescription, files: inout ExternalFileChanges) throws -> SQLValue {
        guard attribute.allowsExternalBinaryDataStorage, attribute.attributeType == .binaryDataAttributeType else {
            return try SQLValueCodec.encode(value, for: attribute)
        }
        if let reference = value as? ExternalDataReference, let loaded = reference.load() as? Data {
            return try encode(loaded, attribute: attribute, files: &files)
        }
        guard let data = value as? Data else { return .null }
        let encoded = try external.encode(data)
        if let file = encoded.writtenFile { files.written.append(file) }
        return .blob(encoded.column)
    }

    /// The external files the given slots of a row refer to now.
    private func externalFiles(of primaryKey: Int64, slots: [Int], mapping: SQLSchema.EntityMapping, connection: SQLiteConnection) throws -> [URL] {
        let layout = mapping.entity.layout
        let columns = slots.compactMap { slot -> String? in
            guard let attribute = layout.slots[slot].attribute, attribute.allowsExternalBinaryDataStorage else { return nil }
            return mapping.columnBySlot[slot]
        }
        guard !columns.isEmpty else { return [] }
        let statement = try connection.statement("SELECT \(columns.joined(separator: ", ")) FROM \(mapping.table) WHERE Z_PK = ?")
        statement.bind(primaryKey, at: 1)
        return try statement.readFirstRow { row in
            (0..<columns.count).compactMap { external.referencedFile(row.data(at: Int32($0))) }
        } ?? []
    }

}

/// Hands out primary keys per inheritance hierarchy from `Z_PRIMARYKEY`, as Apple does: only the
/// root's `Z_MAX` advances.
struct PrimaryKeyAllocator: PrimaryKeySource {
    let connection: SQLiteConnection
    let schema: SQLSchema
    /// The next key of each root entity, by its entity number, except the current run's root.
    private var next: [Int64: Int64] = [:]
    /// The entity of the last key handed out, its root's number and the root's next key: a save
    /// mostly inserts runs of one entity, whose keys then need no lookup.
    private var run: (entity: ObjectIdentifier, root: Int64, next: Int64)?

    init(connection: SQLiteConnection, schema: SQLSchema) {
        self.connection = connection
        self.schema = schema
    }

    mutating func next(for entity: NSEntityDescription) throws -> Int64 {
        if run?.entity != ObjectIdentifier(entity) { try startRun(of: entity) }
        let key = run?.next ?? 1
        run?.next = key + 1
        return key
    }

    /// Makes `entity` the current run's, setting the previous run's root's next key aside.
    private mutating func startRun(of entity: NSEntityDescription) throws {
        if let run {
            next[run.root] = run.next
            self.run = nil
        }
        guard let root = schema.mapping(for: entity.rootEntity)?.number else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The entity \(entity.entityName) is not stored in this SQLite store.")
        }
        if let following = next.removeValue(forKey: root) {
            run = (ObjectIdentifier(entity), root, following)
            return
        }
        run = (ObjectIdentifier(entity), root, try Self.lastKey(of: root, in: connection) + 1)
    }

    /// The last key handed out for an entity number (`Z_PRIMARYKEY.Z_MAX`); 0 before the first.
    static func lastKey(of entityNumber: Int64, in connection: SQLiteConnection) throws -> Int64 {
        let statement = try connection.statement("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?")
        statement.bind(entityNumber, at: 1)
        return try statement.readFirstRow { $0.int64(at: 0) } ?? 0
    }

    /// Records the highest keys handed out.
    func commit() throws {
        var next = self.next
        if let run { next[run.root] = run.next }
        for (root, following) in next {
            let statement = try connection.statement("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
            statement.bind(following - 1, at: 1)
            statement.bind(root, at: 2)
            try statement.run()
        }
    }
}
