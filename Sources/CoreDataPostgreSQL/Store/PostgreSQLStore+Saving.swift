import CoreData

// Saving into the PostgreSQL store: keys reserved before the save's transaction, then one
// transaction that locks the rows the save changes or checks and compares their versions (Z_OPT)
// with those the context read, and writes deletes, inserts (many rows per statement), updates
// and to-many changes.
//
// A conflict rolls the writes back but leaves the transaction open, holding the locks of every
// row the save changes or checks: while the context's merge policy resolves the conflict against
// the rows as they are now, no other process can change them, and the save that follows (the
// next `beginSave`, in the same transaction) writes what the policy decided, as Apple's store
// does under SQLite's write lock. `saveDidEnd()` rolls back a transaction the save left open.
extension PostgreSQLStore {
    func obtainPermanentIDs(for objects: [NSManagedObject]) throws -> [NSManagedObjectID] {
        let (connection, schema) = try writingDatabase()
        return try permanentIDs(for: objects.map(\.entity), connection: connection, schema: schema)
    }

    /// A save the server rolled back to break a deadlock (a batch request locking rows in
    /// another order, say) runs again.
    func beginSave(_ changes: StoreSaveChanges) throws -> StoreSaveOutcome {
        try rerunningTransientFailures { try attemptSave(changes) }
    }

    /// Work the server rolled back to break a deadlock, or for a serialization failure, runs
    /// again, up to three times in all: saves, and batch requests, whose keys a new run reserves
    /// anew.
    package func rerunningTransientFailures<Result>(_ work: () throws -> Result) throws -> Result {
        var attempt = 1
        while true {
            do {
                return try work()
            } catch let error where attempt < 3 && ["40P01", "40001"].contains(PostgreSQLErrors.sqlState(of: error)) {
                attempt += 1
            }
        }
    }

    private func attemptSave(_ changes: StoreSaveChanges) throws -> StoreSaveOutcome {
        let (connection, schema) = try writingDatabase()
        var result = StoreSaveResult()
        // A conflict round gives an object the key it was given in the first round: those keys
        // were reserved before the transaction, which a new reservation would join.
        let unnumbered = changes.inserts.indices.filter { index in
            guard let objectID = changes.inserts[index].objectID else { return true }
            return objectID.isTemporaryID && savePermanentIDs[objectID] == nil
        }
        var reserved = try permanentIDs(for: unnumbered.map { changes.inserts[$0].entity }, connection: connection, schema: schema).makeIterator()
        result.permanentIDs = changes.inserts.map { insert in
            guard let objectID = insert.objectID else { return reserved.next()! }
            if !objectID.isTemporaryID { return objectID }
            if let permanent = savePermanentIDs[objectID] { return permanent }
            let permanent = reserved.next()!
            savePermanentIDs[objectID] = permanent
            return permanent
        }
        // A save that changes one stored row writes it at once (its statement locks it and checks
        // its version, and a conflict is rare). Other saves first lock their rows in one order, so
        // that two of them never deadlock; so does a round after a conflict, whose rows are locked
        // already but may be more, the policy having changed them.
        let isFirstRound = !connection.isInTransaction
        if isFirstRound, changes.isWholeSave, let row = soleUpdate(in: changes) {
            if try commitUpdate(row, connection: connection, schema: schema) { return .written(result) }
            // The row has another version, or is gone: hold it while the policy resolves that.
            try connection.begin()
            return .conflict(try lockRows(Self.lockedRows(of: changes), connection: connection, schema: schema)
                ?? VersionConflict(objectID: row.objectID, readVersion: row.version, storedVersion: nil))
        }
        let writesAtOnce = isFirstRound && changes.updates.count + changes.deletes.count <= 1
        if isFirstRound { try connection.begin() }
        do {
            let checked = writesAtOnce ? changes.lockChecks.map { ($0, false) } : Self.lockedRows(of: changes)
            if let conflict = try lockRows(checked, connection: connection, schema: schema) { return .conflict(conflict) }
            try write(changes, permanentIDs: result.permanentIDs, connection: connection, schema: schema)
            pendingMetadata = changes.metadata.map(completedMetadata)
            return .written(result)
        } catch let conflict as VersionConflict {
            // Undo the writes, then hold the rows while the policy resolves the conflict.
            connection.rollback()
            try connection.begin()
            _ = try lockRows(Self.lockedRows(of: changes), connection: connection, schema: schema)
            return .conflict(conflict)
        } catch {
            connection.rollback()
            pendingMetadata = nil
            throw saveError(error)
        }
    }

    func finishSave(committing: Bool) throws {
        let (connection, _) = try writingDatabase()
        defer {
            pendingMetadata = nil
            savePermanentIDs = [:]
        }
        guard committing else {
            connection.rollback()
            return
        }
        do {
            // A save that `commitUpdate` wrote committed already.
            if connection.isInTransaction { try connection.commit() }
        } catch {
            throw saveError(error)
        }
        if let metadata = pendingMetadata {
            storedMetadata = metadata
            metadataChanged = false
        }
    }

    func saveDidEnd() {
        savePermanentIDs = [:]
        connection?.rollback()
    }

    /// The one row a save changes, when it is all the save does and the store records no
    /// history: the save is then a single statement.
    private func soleUpdate(in changes: StoreSaveChanges) -> RowChange? {
        guard !tracksHistory, changes.updates.count == 1, changes.inserts.isEmpty, changes.deletes.isEmpty,
              changes.toManyChanges.isEmpty, changes.lockChecks.isEmpty, changes.metadata == nil else { return nil }
        return changes.updates[0]
    }

    /// Updates a row that still has the version the context read, and notifies the commit
    /// listeners, in one statement committed as it runs (one round trip, as an `UPDATE` alone
    /// takes); false when the row has another version or is gone, and nothing changed.
    private func commitUpdate(_ row: RowChange, connection: PostgreSQLConnection, schema: SQLSchema) throws -> Bool {
        guard let mapping = schema.mapping(for: row.objectID.entity), let primaryKey = row.objectID.primaryKey else { return true }
        let keys = SavePrimaryKeys(inserts: [], permanentIDs: [])
        let assignments = try SQLRowEncoding.assignments(of: row.values, slots: row.changedSlots, mapping: mapping, keys: keys, schema: schema, encode: { try SQLValueCodec.encode($0, for: $1) })
        let sets = Self.versionedAssignments(of: assignments.map(\.column))
        // The notification joins the row, so the server sends it only when the row is updated,
        // and the statement returns no rows, only its count.
        let statement = try connection.statement(
            "UPDATE \(mapping.table) SET \(sets) FROM (SELECT pg_notify('\(commitChannel)', '')) AS notified WHERE Z_PK = ? AND Z_OPT = ?"
        )
        statement.bind(assignments.map(\.value) + [.integer(primaryKey), .integer(row.version)])
        do {
            try statement.run()
        } catch {
            throw saveError(error)
        }
        return connection.changes == 1
    }

    /// The rows a save updates, deletes or checks, each marked whether the save deletes it.
    private static func lockedRows(of changes: StoreSaveChanges) -> [(row: RowChange, isDelete: Bool)] {
        changes.updates.map { ($0, false) } + changes.lockChecks.map { ($0, false) } + changes.deletes.map { ($0, true) }
    }

    /// Locks the rows a save updates, deletes or checks, in the order of their tables and keys
    /// (so that two saves lock shared rows in one order and never deadlock), and returns the
    /// first whose version is not the one the context read; a deleted row is gone already for
    /// good, which is no conflict.
    private func lockRows(_ rows: [(row: RowChange, isDelete: Bool)], connection: PostgreSQLConnection, schema: SQLSchema) throws -> VersionConflict? {
        var byTable: [String: [(row: RowChange, isDelete: Bool, primaryKey: Int64)]] = [:]
        for (row, isDelete) in rows {
            guard let table = schema.mapping(for: row.objectID.entity)?.table, let primaryKey = row.objectID.primaryKey else { continue }
            byTable[table, default: []].append((row, isDelete, primaryKey))
        }
        for (table, rows) in byTable.sorted(by: { $0.key < $1.key }) {
            var versions: [Int64: Int64] = [:]
            for chunk in Set(rows.map(\.primaryKey)).sorted().chunked(into: Self.maximumParameters) {
                let statement = try connection.statement("SELECT Z_PK, Z_OPT FROM \(table) WHERE Z_PK IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ", "))) ORDER BY Z_PK FOR UPDATE")
                statement.bind(chunk.map(SQLValue.integer))
                while try statement.step() {
                    versions[statement.int64(at: 0)] = statement.int64(at: 1)
                }
            }
            for (row, isDelete, primaryKey) in rows where versions[primaryKey] != row.version {
                if isDelete, versions[primaryKey] == nil { continue }
                return VersionConflict(objectID: row.objectID, readVersion: row.version, storedVersion: versions[primaryKey])
            }
        }
        return nil
    }

    /// New permanent IDs for objects of the given entities, from reserved key blocks.
    private func permanentIDs(for entities: [NSEntityDescription], connection: PostgreSQLConnection, schema: SQLSchema) throws -> [NSManagedObjectID] {
        let roots = try entities.map { try rootNumber(of: $0, schema: schema) }
        try keyBlocks.reserve(Dictionary(roots.map { ($0, 1) }, uniquingKeysWith: +), connection: connection)
        return zip(entities, roots).map { entity, root in objectID(for: entity, primaryKey: keyBlocks.next(forRoot: root)!) }
    }

    /// The entity number of an entity's inheritance root, whose keys its rows take.
    func rootNumber(of entity: NSEntityDescription, schema: SQLSchema) throws -> Int64 {
        guard let root = schema.mapping(for: entity.rootEntity)?.number else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The entity \(entity.entityName) is not stored in this PostgreSQL store.")
        }
        return root
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
        try recordHistory(of: changes, permanentIDs: permanentIDs)
        try notifyCommit(on: connection)
    }

    /// Has the open transaction notify the store's commit listeners on every server as it
    /// commits, at no round trip of its own.
    func notifyCommit(on connection: PostgreSQLConnection) throws {
        // The channel's name is letters, digits and underscores (`PostgreSQLCommitListener.channel`).
        try connection.pipeline("SELECT pg_notify('\(commitChannel)', '')")
    }

    /// Inserts rows, consecutive rows of one entity by statements of many rows.
    private func insert(_ inserts: [RowInsert], permanentIDs: [NSManagedObjectID], keys: SavePrimaryKeys, connection: PostgreSQLConnection, schema: SQLSchema) throws {
        var run: (entity: NSEntityDescription, mapping: SQLSchema.EntityMapping, inserter: SQLRowInserter<PostgreSQLConnection>?)?
        for index in inserts.indices {
            let entity = inserts[index].entity
            if run?.entity !== entity {
                try run?.inserter?.flush()
                guard let mapping = schema.mapping(for: entity) else {
                    throw CoreDataError.make(NSPersistentStoreSaveError, "The entity \(entity.entityName) is not stored in this PostgreSQL store.")
                }
                run = (entity, mapping, nil)
            }
            guard let mapping = run?.mapping else { continue }
            let assignments = try SQLRowEncoding.assignments(of: inserts[index].values, slots: mapping.storedSlots, mapping: mapping, keys: keys, schema: schema, encode: { try SQLValueCodec.encode($0, for: $1) })
            if run?.inserter == nil {
                run?.inserter = SQLRowInserter(into: mapping.table, columns: ["Z_PK", "Z_ENT", "Z_OPT"] + assignments.map(\.column), database: connection,
                                               rowsPerStatement: Self.rowsPerInsert, maximumParameters: Self.maximumParameters)
            }
            try run?.inserter?.insert([.integer(permanentIDs[index].primaryKey ?? 0), .integer(mapping.number), .integer(1)] + assignments.map(\.value))
        }
        try run?.inserter?.flush()
    }

    /// A failed save's error: the database's refusal of a unique value of a uniqueness
    /// constraint is a constraint conflict (133021), anything else (a primary key taken
    /// included) a failed save (134030).
    private func saveError(_ error: any Error) -> NSError {
        let isConstraintConflict = PostgreSQLErrors.sqlState(of: error) == "23505" && !(PostgreSQLErrors.constraint(of: error)?.hasSuffix("_pkey") ?? false)
        let code = isConstraintConflict ? NSManagedObjectConstraintMergeError : NSPersistentStoreSaveError
        return PostgreSQLErrors.make(code, "The PostgreSQL store could not save: \(PostgreSQLErrors.reason(of: (error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error ?? error))", location: url, underlying: error)
    }
}
