// Batch requests in a relational store: each is one transaction (the store's
// `batchTransaction`) of UPDATE, DELETE or INSERT statements over the rows the compiled predicate
// selects, every value bound as a parameter. Changed rows get a new Z_OPT, so contexts holding
// older values meet conflicts when they save.
extension RelationalStore {
    package func executeBatchUpdate(_ update: BatchUpdate) throws -> BatchOutcome {
        let (_, schema) = try writingDatabase()
        let plan = update.plan
        let mapping = try storedMapping(of: plan.entity, in: schema)
        return try batchTransaction { connection, files in
            // Only a result that names the objects needs their IDs in memory.
            let identifiers = update.reportsObjectIDs ? try fetchObjectIDs(plan) : []
            if update.reportsObjectIDs, identifiers.isEmpty { return BatchOutcome() }
            var compiler = SQLPredicateCompiler(schema: schema, store: self, dialect: dialect)
            var sets = [SQLFragment(sql: "Z_OPT = Z_OPT + 1")]
            for (slot, value) in update.assignments {
                guard mapping.compositeColumnsBySlot[slot] == nil else {
                    throw CoreDataError.invalidRequest("A batch update cannot set the composite attribute \(plan.entity.layout.slots[slot].name) of \(plan.entity.entityName).")
                }
                guard let column = mapping.columnBySlot[slot], let attribute = plan.entity.layout.slots[slot].attribute else { continue }
                sets.append(try assignment(of: value, to: column, attribute: attribute, mapping: mapping, compiler: &compiler, files: &files))
            }
            let slots = update.assignments.map(\.slot)
            if var recorder = try historyRecorder() {
                if update.reportsObjectIDs {
                    for identifier in identifiers { try recorder.recordUpdate(of: identifier, slots: slots) }
                } else {
                    try forEachRow(of: plan, schema: schema) { try recorder.recordUpdate(of: $0, slots: slots) }
                }
                try recorder.finish()
            }
            let matching = try select(plan: plan, schema: schema, paged: false, sorted: false) { _, _ in SQLProjection(columns: SQLFragment(sql: "t0.Z_PK")) }
            let setList = SQLFragment.joined(sets, separator: ", ")
            let query = SQLFragment(sql: "UPDATE \(mapping.table) SET \(setList.sql) WHERE Z_PK IN (\(matching.sql))", bindings: setList.bindings + matching.bindings)
            try prepare(query, on: connection).run()
            guard update.reportsObjectIDs else { return BatchOutcome(unlistedCount: connection.changes) }
                return BatchOutcome(objectIDs: identifiers, changedRows: identifiers)
        }
    }

    /// Calls `body` with the ID of each row a plan matches, one row at a time.
    private func forEachRow(of plan: FetchPlan, schema: SQLSchema, _ body: (NSManagedObjectID) throws -> Void) throws {
        let (connection, _) = try writingDatabase()
        let rows = try prepare(try select(plan: plan, schema: schema, paged: true) { _, _ in SQLProjection(columns: SQLFragment(sql: "t0.Z_PK, t0.Z_ENT")) }, on: connection)
        while try rows.step() {
            guard let entity = schema.rowEntity(number: rows.int64(at: 1)) else { continue }
            try body(objectID(for: entity, primaryKey: rows.int64(at: 0)))
        }
    }

    /// `column = value`: a bound constant, or an expression compiled by the predicate compiler and
    /// read from the row being updated through a subquery (so key paths may join other tables).
    private func assignment(of value: BatchUpdateValue, to column: String, attribute: NSAttributeDescription, mapping: SQLSchema.EntityMapping,
                            compiler: inout SQLPredicateCompiler, files: inout ExternalFileChanges) throws -> SQLFragment {
        switch value {
        case .constant(let constant):
            return SQLFragment(sql: "\(column) = ?", bindings: [try encode(constant, attribute: attribute, files: &files)])
        case .expression(let expression):
            let scope = SQLScope(entity: mapping.entity, alias: "t0")
            let item = try compiler.selectItem(expression.node, in: scope)
            let joins = scope.joins.isEmpty ? "" : " " + scope.joins.joined(separator: " ")
            return SQLFragment(sql: "\(column) = (SELECT \(item.fragment.sql) FROM \(mapping.table) t0\(joins) WHERE t0.Z_PK = \(mapping.table).Z_PK)", bindings: item.fragment.bindings)
        }
    }

    func storedMapping(of entity: NSEntityDescription, in schema: SQLSchema) throws -> SQLSchema.EntityMapping {
        guard let mapping = schema.mapping(for: entity) else {
            throw CoreDataError.invalidRequest("The entity \(entity.entityName) is not stored in this \(dialect.storeName) store.")
        }
        return mapping
    }

    // MARK: Deleting

    package func executeBatchDelete(_ deletion: BatchDelete) throws -> BatchOutcome {
        let (_, schema) = try writingDatabase()
        if !deletion.reportsObjectIDs, !Self.followsDestinations(deleting: deletion.plan.entities) {
            return try deleteWithoutListing(deletion.plan, schema: schema)
        }
        return try batchTransaction { connection, _ in
            let deleted = try rowsToDelete(startingWith: try fetchObjectIDs(deletion.plan), schema: schema)
            var outcome = BatchOutcome(objectIDs: deleted, changedRows: deleted)
            var recorder = try historyRecorder()
            // Rows the request deletes get a delete in history, not an update of their foreign keys.
            let deletedRows = recorder == nil ? [] : Set(deleted)
            for identifiers in Dictionary(grouping: deleted, by: { ObjectIdentifier($0.entity) }).values {
                let entity = identifiers[0].entity
                let keys = identifiers.compactMap(\.primaryKey)
                let mapping = try storedMapping(of: entity, in: schema)
                if recorder != nil {
                    let tombstones = try tombstones(of: keys, entity: entity, mapping: mapping)
                    for identifier in identifiers {
                        try recorder?.recordDelete(of: identifier, tombstone: identifier.primaryKey.flatMap { tombstones[$0] } ?? [])
                    }
                }
                let nullified = try nullifyReferences(to: entity, keys: keys, connection: connection, schema: schema)
                outcome.changedRows += nullified.map(\.row)
                for (row, slot) in nullified where !deletedRows.contains(row) { try recorder?.recordUpdate(of: row, slots: [slot]) }
                for relationship in entity.relationshipsByName.values {
                    guard let joinTable = schema.joinTable(for: relationship) else { continue }
                    try run("DELETE FROM \(joinTable.name) WHERE \(joinTable.columns(for: relationship).source) IN", keys: keys)
                }
                try run("DELETE FROM \(mapping.table) WHERE Z_PK IN", keys: keys)
            }
            try recorder?.finish()
            return outcome
        }
    }

    /// The matched rows and the rows their cascading relationships reach, each once; a deny rule
    /// with a destination fails the request.
    private func rowsToDelete(startingWith matched: [NSManagedObjectID], schema: SQLSchema) throws -> [NSManagedObjectID] {
        var deleted: [NSManagedObjectID] = []
        var seen = Set<NSManagedObjectID>()
        var pending = matched
        while !pending.isEmpty {
            let fresh = pending.filter { seen.insert($0).inserted }
            deleted += fresh
            pending = []
            for owners in Dictionary(grouping: fresh, by: { ObjectIdentifier($0.entity) }).values {
                let entity = owners[0].entity
                for relationship in entity.relationshipsByName.values {
                    switch relationship.deleteRule {
                    case .denyDeleteRule:
                        if !(try destinations(of: owners, through: relationship, schema: schema)).isEmpty {
                            throw CoreDataError.make(
                                NSValidationRelationshipDeniedDeleteError,
                                "A batch delete cannot delete \(entity.entityName) objects whose relationship '\(relationship.name)' (delete rule deny) has destinations.",
                                userInfo: [NSValidationKeyErrorKey: relationship.name]
                            )
                        }
                    case .cascadeDeleteRule:
                        pending += try destinations(of: owners, through: relationship, schema: schema)
                    default:
                        continue
                    }
                }
            }
        }
        return deleted
    }

    /// The destinations of a relationship of several owners of one entity.
    private func destinations(of owners: [NSManagedObjectID], through relationship: NSRelationshipDescription, schema: SQLSchema) throws -> [NSManagedObjectID] {
        guard !relationship.isToMany else {
            return try destinationIDs(ofOwners: owners, relationship: relationship).values.flatMap { $0 }
        }
        guard let destination = relationship.destinationEntity, let ownerEntity = owners.first?.entity,
              let slot = ownerEntity.layout.slotIndex(forKey: relationship.name) else { return [] }
        let mapping = try storedMapping(of: ownerEntity, in: schema)
        guard let column = mapping.columnBySlot[slot] else { return [] }
        let typed = mapping.typedColumnBySlot[slot]
        var found: [NSManagedObjectID] = []
        for chunk in owners.compactMap(\.primaryKey).chunked(into: Self.maximumParameters) {
            let rows = try statement("SELECT \(column), \(typed ?? "NULL") FROM \(mapping.table) WHERE \(column) IS NOT NULL AND Z_PK IN (\(SQLPredicateCompiler.placeholders(chunk.count)))", binding: chunk)
            while try rows.step() {
                let entity = rows.isNull(at: 1) ? destination : schema.rowEntity(number: rows.int64(at: 1)) ?? destination
                found.append(objectID(for: entity, primaryKey: rows.int64(at: 0)))
            }
        }
        return found
    }

    /// The values of rows' preserved attributes, as their columns hold them, in the order of the
    /// history's tombstone columns, by primary key.
    private func tombstones(of keys: [Int64], entity: NSEntityDescription, mapping: SQLSchema.EntityMapping) throws -> [Int64: [SQLValue]] {
        let columns = entity.layout.preservedAttributeSlots.map { mapping.columnBySlot[$0] ?? "NULL" }
        guard !columns.isEmpty else { return [:] }
        var tombstones: [Int64: [SQLValue]] = [:]
        for chunk in keys.chunked(into: Self.maximumParameters) {
            let rows = try statement("SELECT Z_PK, \(columns.joined(separator: ", ")) FROM \(mapping.table) WHERE Z_PK IN (\(SQLPredicateCompiler.placeholders(chunk.count)))", binding: chunk)
            while try rows.step() {
                tombstones[rows.int64(at: 0)] = columns.indices.map { rows.value(at: Int32($0 + 1)) }
            }
        }
        return tombstones
    }

    /// Clears every to-one foreign key that refers to deleted rows of an entity's hierarchy, and
    /// returns the rows it changed, each with the slot of the relationship it cleared.
    private func nullifyReferences(to entity: NSEntityDescription, keys: [Int64], connection: Database, schema: SQLSchema) throws -> [(row: NSManagedObjectID, slot: Int)] {
        var changed: [(row: NSManagedObjectID, slot: Int)] = []
        for reference in schema.foreignKeys(referringTo: entity) {
            for chunk in keys.chunked(into: Self.maximumParameters) {
                let placeholders = SQLPredicateCompiler.placeholders(chunk.count)
                let rows = try statement("SELECT Z_PK, Z_ENT FROM \(reference.table) WHERE \(reference.column) IN (\(placeholders))", binding: chunk)
                while try rows.step() {
                    if let rowEntity = schema.rowEntity(number: rows.int64(at: 1)) {
                        changed.append((objectID(for: rowEntity, primaryKey: rows.int64(at: 0)), reference.slot))
                    }
                }
            }
            try run("\(reference.clearingSQL) WHERE \(reference.column) IN", keys: keys)
        }
        return changed
    }

    /// Runs `<sql> (<keys>)` once per `maximumParameters` keys.
    private func run(_ sql: String, keys: [Int64]) throws {
        for chunk in keys.chunked(into: Self.maximumParameters) {
            try statement("\(sql) (\(SQLPredicateCompiler.placeholders(chunk.count)))", binding: chunk).run()
        }
    }

    /// A statement of the writing connection with keys bound to its parameters, ready to step.
    private func statement(_ sql: String, binding keys: ArraySlice<Int64>) throws -> Database.Statement {
        let statement = try writingDatabase().0.statement(sql)
        for (index, key) in keys.enumerated() { statement.bind(key, at: Int32(index + 1)) }
        return statement
    }

    // MARK: Inserting

    package func executeBatchInsert(_ insert: BatchInsert) throws -> BatchOutcome {
        let (_, schema) = try writingDatabase()
        let mapping = try storedMapping(of: insert.entity, in: schema)
        let layout = insert.entity.layout
        let attributes = insert.slots.compactMap { layout.slots[$0].attribute }
        let columns = try insert.slots.map { slot in
            guard let column = mapping.columnBySlot[slot] else {
                throw CoreDataError.invalidRequest("The attribute \(layout.slots[slot].name) of \(insert.entity.entityName) has no column in this \(dialect.storeName) store.")
            }
            return column
        }
        let constraints = uniquenessConstraintPositions(of: insert)
        var keys = try batchPrimaryKeys(count: insert.rows.count, of: insert.entity)
        return try batchTransaction { connection, files in
            var outcome = BatchOutcome()
            var recorder = try historyRecorder()
            var inserter = SQLRowInserter(into: mapping.table, columns: ["Z_PK", "Z_ENT", "Z_OPT"] + columns, database: connection,
                                          rowsPerStatement: Self.rowsPerInsert, maximumParameters: Self.maximumParameters)
            for row in insert.rows {
                let values = try zip(row.values, attributes).map { try encode($0, attribute: $1, files: &files) }
                if !constraints.isEmpty {
                    // The lookup must see the rows this request inserted before.
                    try inserter.flush()
                    if let existing = try constrainedRow(matching: values, constraints: constraints, columns: columns, mapping: mapping, schema: schema) {
                        try update(existing, with: values, given: row.given, columns: columns, mapping: mapping, connection: connection)
                        try recorder?.recordUpdate(of: existing, slots: zip(insert.slots, row.given).filter(\.1).map(\.0))
                        outcome.objectIDs.append(existing)
                        outcome.changedRows.append(existing)
                        continue
                    }
                }
                let key = try keys.next(for: insert.entity)
                try inserter.insert([.integer(key), .integer(mapping.number), .integer(1)] + values)
                let inserted = objectID(for: insert.entity, primaryKey: key)
                try recorder?.recordInsert(of: inserted)
                outcome.objectIDs.append(inserted)
            }
            try inserter.flush()
            try keys.commit()
            try recorder?.finish()
            return outcome
        }
    }

    /// The positions in the insert's slots of each uniqueness constraint's attributes; constraints
    /// naming something else (a relationship) are left out.
    private func uniquenessConstraintPositions(of insert: BatchInsert) -> [[Int]] {
        let layout = insert.entity.layout
        return insert.entity.uniquenessConstraints.compactMap { constraint in
            let positions = constraint.compactMap { element -> Int? in
                let name = (element as? NSPropertyDescription)?.name ?? (element as? String) ?? "\(element)"
                return layout.slotIndex(forKey: name).flatMap { insert.slots.firstIndex(of: $0) }
            }
            return positions.count == constraint.count && !positions.isEmpty ? positions : nil
        }
    }

    /// The existing row of the entity's hierarchy holding a row's values of some uniqueness
    /// constraint; NULL values match nothing.
    private func constrainedRow(matching values: [SQLValue], constraints: [[Int]], columns: [String], mapping: SQLSchema.EntityMapping, schema: SQLSchema) throws -> NSManagedObjectID? {
        for positions in constraints where !positions.contains(where: { values[$0] == .null }) {
            let conditions = positions.map { "\(columns[$0]) = ?" }.joined(separator: " AND ")
            let root = try storedMapping(of: mapping.entity.rootEntity, in: schema)
            let numbers = root.numbersWithDescendants.map(String.init).joined(separator: ", ")
            let statement = try writingDatabase().0.statement("SELECT Z_PK, Z_ENT FROM \(mapping.table) WHERE Z_ENT IN (\(numbers)) AND \(conditions) LIMIT 1")
            for (index, position) in positions.enumerated() { statement.bind(values[position], at: Int32(index + 1)) }
            let found = try statement.readFirstRow { row in
                schema.rowEntity(number: row.int64(at: 1)).map { objectID(for: $0, primaryKey: row.int64(at: 0)) }
            }
            if let found = found ?? nil { return found }
        }
        return nil
    }

    /// Sets the values a row gave on an existing row, with a new version.
    private func update(_ existing: NSManagedObjectID, with values: [SQLValue], given: [Bool], columns: [String], mapping: SQLSchema.EntityMapping, connection: Database) throws {
        let positions = given.indices.filter { given[$0] }
        let sets = Self.versionedAssignments(of: positions.map { columns[$0] })
        let statement = try connection.statement("UPDATE \(mapping.table) SET \(sets) WHERE Z_PK = ?")
        for (index, position) in positions.enumerated() { statement.bind(values[position], at: Int32(index + 1)) }
        statement.bind(existing.primaryKey ?? 0, at: Int32(positions.count + 1))
        try statement.run()
    }
}
