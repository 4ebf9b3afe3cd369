// Fetching from a relational store: each plan becomes one SELECT over the root table, with the
// predicate and sort compiled to SQL and every value bound as a parameter.
extension RelationalStore {
    package func fetchRows(_ plan: FetchPlan) throws -> [RowSnapshot] {
        if sortsInMemory(plan) { return try fetchRowsSortedInMemory(plan) }
        let (connection, schema) = try readingDatabase()
        let generation = readGeneration
        let readTime = DispatchTime.now().uptimeNanoseconds
        let reader = try rowReader(for: plan.entities, schema: schema)
        let query = try select(reader.selectList, plan: plan, schema: schema, paged: true)
        let statement = try prepare(query, on: connection)
        var rows: [RowSnapshot] = []
        while try statement.step() {
            if let row = reader.snapshot(from: statement, store: self, schema: schema, generation: generation, readTime: readTime) { rows.append(row) }
        }
        return rows
    }

    package func fetchObjectIDs(_ plan: FetchPlan) throws -> [NSManagedObjectID] {
        let identifiers = try fetchCompactObjectIDs(plan)
        return identifiers.objectIDs(in: 0..<identifiers.count)
    }

    package func fetchCompactObjectIDs(_ plan: FetchPlan) throws -> FetchedObjectIDs {
        if sortsInMemory(plan) {
            let identifiers = FetchedObjectIDs(store: self)
            for row in try fetchRowsSortedInMemory(plan) {
                identifiers.append(primaryKey: row.objectIDValue.keyNumber, entity: row.objectIDValue.entity)
            }
            return identifiers
        }
        let (connection, schema) = try readingDatabase()
        let statement = try prepare(try select("t0.Z_PK, t0.Z_ENT", plan: plan, schema: schema, paged: true), on: connection)
        let identifiers = FetchedObjectIDs(store: self)
        while try statement.step() {
            guard let entity = schema.rowEntity(number: statement.int64(at: 1)) else { continue }
            identifiers.append(primaryKey: statement.int64(at: 0), entity: entity)
        }
        return identifiers
    }

    package func fetchCompactObjectIDs(_ plan: FetchPlan, withValuesOf keyPaths: [String]) throws -> FetchedKeyedObjectIDs? {
        guard !sortsInMemory(plan) else { return nil }
        let (connection, schema) = try readingDatabase()
        var attributes: [NSAttributeDescription]?
        let query = try select(plan: plan, schema: schema, paged: true) { compiler, scope in
            let items = keyPaths.map { keyPath in
                try? compiler.selectItem(.keyPath(base: nil, components: keyPath.split(separator: ".").map(String.init)), in: scope)
            }
            attributes = Self.simpleAttributes(of: items)
            return SQLProjection(columns: SQLFragment.joined([SQLFragment(sql: "t0.Z_PK, t0.Z_ENT")] + items.compactMap { $0?.fragment }, separator: ", "))
        }
        guard let types = attributes?.map(\.attributeType) else { return nil }
        let statement = try prepare(query, on: connection)
        let identifiers = FetchedObjectIDs(store: self)
        var values: [[SortKeyValue]] = []
        while try statement.step() {
            guard let entity = schema.rowEntity(number: statement.int64(at: 1)) else { continue }
            identifiers.append(primaryKey: statement.int64(at: 0), entity: entity)
            values.append(types.indices.map { SQLValueCodec.sortKeyValue(statement, at: Int32(2 + $0), type: types[$0]) })
        }
        return FetchedKeyedObjectIDs(objectIDs: identifiers, values: values)
    }

    /// The attributes selected items read, when each is a column of an attribute of a simple
    /// type; nil otherwise.
    private static func simpleAttributes(of items: [SQLPredicateCompiler.SelectItem?]) -> [NSAttributeDescription]? {
        var attributes: [NSAttributeDescription] = []
        for item in items {
            guard case .attribute(let attribute)? = item?.decoding, SQLValueCodec.isSimple(attribute.attributeType) else { return nil }
            attributes.append(attribute)
        }
        return attributes
    }

    package func countRows(_ plan: FetchPlan) throws -> Int {
        let (connection, schema) = try readingDatabase()
        let query: SQLFragment
        if plan.limit > 0 || plan.offset > 0 {
            let page = try select("t0.Z_PK", plan: plan, schema: schema, paged: true, sorted: false)
            query = SQLFragment(sql: "SELECT COUNT(*) FROM (\(page.sql)) AS page", bindings: page.bindings)
        } else {
            query = try select("COUNT(*)", plan: plan, schema: schema, paged: false, sorted: false)
        }
        let statement = try prepare(query, on: connection)
        return try statement.readFirstRow { Int($0.int64(at: 0)) } ?? 0
    }

    package func snapshot(for objectID: NSManagedObjectID) throws -> RowSnapshot? {
        guard let primaryKey = objectID.primaryKey else { return nil }
        let (connection, schema) = try readingDatabase()
        let generation = readGeneration
        let readTime = DispatchTime.now().uptimeNanoseconds
        let entities = objectID.entity.selfAndDescendants
        let reader = try rowReader(for: entities, schema: schema)
        let statement = try connection.statement("SELECT \(reader.selectList) FROM \(reader.table) t0 WHERE t0.Z_PK = ?")
        statement.bind(primaryKey, at: 1)
        return try statement.readFirstRow { row in
            reader.snapshot(from: row, store: self, schema: schema, generation: generation, readTime: readTime)
        } ?? nil
    }

    /// The rows of several objects, one query per inheritance hierarchy.
    package func snapshots(for objectIDs: [NSManagedObjectID]) throws -> [RowSnapshot] {
        let (connection, schema) = try readingDatabase()
        let generation = readGeneration
        let readTime = DispatchTime.now().uptimeNanoseconds
        var byRoot: [ObjectIdentifier: [NSManagedObjectID]] = [:]
        for objectID in objectIDs where objectID.primaryKey != nil {
            byRoot[ObjectIdentifier(objectID.entity.rootEntity), default: []].append(objectID)
        }
        var rows: [RowSnapshot] = []
        for identifiers in byRoot.values {
            guard let root = identifiers.first?.entity.rootEntity else { continue }
            let reader = try rowReader(for: root.selfAndDescendants, schema: schema)
            for chunk in identifiers.chunked(into: Self.maximumParameters) {
                let placeholders = SQLPredicateCompiler.placeholders(chunk.count)
                let statement = try connection.statement("SELECT \(reader.selectList) FROM \(reader.table) t0 WHERE t0.Z_PK IN (\(placeholders))")
                for (index, identifier) in chunk.enumerated() {
                    statement.bind(identifier.primaryKey ?? 0, at: Int32(index + 1))
                }
                while try statement.step() {
                    if let row = reader.snapshot(from: statement, store: self, schema: schema, generation: generation, readTime: readTime) { rows.append(row) }
                }
            }
        }
        return rows
    }

    package func destinationIDs(of objectID: NSManagedObjectID, relationship: NSRelationshipDescription) throws -> [NSManagedObjectID] {
        try destinationIDs(ofOwners: [objectID], relationship: relationship)[objectID] ?? []
    }

    /// The destinations of several owners in one query per `maximumParameters` owners: the owner's
    /// key, then the destination's, from the join table or the destinations' foreign key.
    package func destinationIDs(ofOwners owners: [NSManagedObjectID], relationship: NSRelationshipDescription) throws -> [NSManagedObjectID: [NSManagedObjectID]] {
        guard let destination = relationship.destinationEntity else { return [:] }
        let (connection, schema) = try readingDatabase()
        guard let destinationMapping = schema.mapping(for: destination) else { return [:] }
        var ownersByKey: [Int64: NSManagedObjectID] = [:]
        for owner in owners {
            if let key = owner.primaryKey { ownersByKey[key] = owner }
        }
        var destinations: [NSManagedObjectID: [NSManagedObjectID]] = [:]
        for chunk in Array(ownersByKey.keys).chunked(into: Self.maximumParameters) {
            let placeholders = SQLPredicateCompiler.placeholders(chunk.count)
            let sql: String
            if let joinTable = schema.joinTable(for: relationship) {
                let columns = joinTable.columns(for: relationship)
                let order = joinTable.orderColumns[columns.destination].map { " ORDER BY j.\($0)" } ?? ""
                sql = "SELECT j.\(columns.source), d.Z_PK, d.Z_ENT FROM \(joinTable.name) j JOIN \(destinationMapping.table) d ON d.Z_PK = j.\(columns.destination) WHERE j.\(columns.source) IN (\(placeholders))\(order)"
            } else {
                guard let inverse = relationship.inverseRelationship,
                      let inverseSlot = destination.layout.slotIndex(forKey: inverse.name),
                      let foreignKey = destinationMapping.columnBySlot[inverseSlot] else { return [:] }
                let order = schema.orderColumn(for: relationship).map { " ORDER BY \($0), Z_PK" } ?? ""
                sql = "SELECT \(foreignKey), Z_PK, Z_ENT FROM \(destinationMapping.table) WHERE \(foreignKey) IN (\(placeholders))\(order)"
            }
            let statement = try connection.statement(sql)
            for (index, key) in chunk.enumerated() {
                statement.bind(key, at: Int32(index + 1))
            }
            while try statement.step() {
                guard let owner = ownersByKey[statement.int64(at: 0)], let entity = schema.rowEntity(number: statement.int64(at: 2)) else { continue }
                destinations[owner, default: []].append(objectID(for: entity, primaryKey: statement.int64(at: 1)))
            }
        }
        for owner in ownersByKey.values where destinations[owner] == nil {
            destinations[owner] = []
        }
        return destinations
    }

    /// The rows of the destinations of a to-many relationship kept by a foreign key in the
    /// destinations' table, for several owners at once: one query per `maximumParameters` owners,
    /// through the foreign key's index. Many-to-many relationships answer nil.
    package func destinationRows(ofOwners owners: [NSManagedObjectID], relationship: NSRelationshipDescription) throws -> [NSManagedObjectID: [RowSnapshot]]? {
        guard let destination = relationship.destinationEntity, let inverse = relationship.inverseRelationship, !inverse.isToMany else { return nil }
        let (connection, schema) = try readingDatabase()
        guard schema.joinTable(for: relationship) == nil, let destinationMapping = schema.mapping(for: destination),
              let inverseSlot = destination.layout.slotIndex(forKey: inverse.name),
              let foreignKey = destinationMapping.columnBySlot[inverseSlot] else { return nil }
        let generation = readGeneration
        let readTime = DispatchTime.now().uptimeNanoseconds
        let reader = try rowReader(for: destination.selfAndDescendants, schema: schema)
        let order = schema.orderColumn(for: relationship).map { " ORDER BY t0.\($0), t0.Z_PK" } ?? ""
        var ownersByKey: [Int64: NSManagedObjectID] = [:]
        for owner in owners {
            if let key = owner.primaryKey { ownersByKey[key] = owner }
        }
        var rows: [NSManagedObjectID: [RowSnapshot]] = [:]
        func file(_ ownerKey: Int64, _ run: [RowSnapshot]) {
            guard let owner = ownersByKey[ownerKey] else { return }
            if rows[owner] == nil { rows[owner] = run } else { rows[owner]! += run }
        }
        for chunk in Array(ownersByKey.keys).chunked(into: Self.maximumParameters) {
            // The foreign key is selected again, last, so that each row's owner is read as a number.
            let statement = try connection.statement(
                "SELECT \(reader.selectList), t0.\(foreignKey) FROM \(destinationMapping.table) t0 WHERE t0.\(foreignKey) IN (\(SQLPredicateCompiler.placeholders(chunk.count)))\(order)"
            )
            for (index, key) in chunk.enumerated() {
                statement.bind(key, at: Int32(index + 1))
            }
            let ownerColumn = reader.columnCount
            var run = RowRun()
            while try statement.step() {
                guard let row = reader.snapshot(from: statement, store: self, schema: schema, generation: generation, readTime: readTime) else { continue }
                run.add(row, ownerKey: statement.int64(at: ownerColumn), flush: file)
            }
            run.finish(file)
        }
        return rows
    }

    // MARK: Query building

    /// `SELECT <columns> FROM <table> t0 <joins> WHERE <entity filter> AND <predicate> ORDER BY … LIMIT … OFFSET …`.
    private func select(_ columns: String, plan: FetchPlan, schema: SQLSchema, paged: Bool, sorted: Bool = true) throws -> SQLFragment {
        try select(plan: plan, schema: schema, paged: paged, sorted: sorted) { _, _ in SQLProjection(columns: SQLFragment(sql: columns)) }
    }

    /// `SELECT [DISTINCT] <projection> FROM <table> t0 <joins> WHERE … GROUP BY … ORDER BY … LIMIT …`,
    /// where the projection is compiled with the same compiler, and so the same joins, as the
    /// predicate and the sort.
    func select(plan: FetchPlan, schema: SQLSchema, paged: Bool, sorted: Bool = true,
                projection: (inout SQLPredicateCompiler, SQLScope) throws -> SQLProjection) throws -> SQLFragment {
        guard let mapping = schema.mapping(for: plan.entity) else {
            throw CoreDataError.invalidRequest("The entity \(plan.entity.entityName) is not stored in this \(dialect.storeName) store.")
        }
        var compiler = SQLPredicateCompiler(schema: schema, store: self, dialect: dialect)
        let scope = SQLScope(entity: plan.entity, alias: "t0")
        let selected = try projection(&compiler, scope)
        let numbers = plan.entities.compactMap { schema.mapping(for: $0)?.number }
        let hierarchy = plan.entity.rootEntity.selfAndDescendants.filter { schema.mapping(for: $0) != nil }
        let condition = try plan.predicate.map { try compiler.compile($0.node, in: scope) }
        let order = sorted ? try plan.sortDescriptors.map { try compiler.orderTerm($0, in: scope, grouped: !selected.groupBy.isEmpty) } : []
        var filters: [String] = []
        if numbers.count < hierarchy.count { filters.append("t0.Z_ENT IN (\(numbers.map(String.init).joined(separator: ", ")))") }
        if let condition { filters.append("(\(condition.sql))") }
        var sql = "SELECT \(selected.distinct ? "DISTINCT " : "")\(selected.columns.sql) FROM \(mapping.table) t0"
        if !scope.joins.isEmpty { sql += " " + scope.joins.joined(separator: " ") }
        // Without a WHERE clause, SQLite counts a table's rows with a single instruction.
        if !filters.isEmpty { sql += " WHERE " + filters.joined(separator: " AND ") }
        let grouping = SQLFragment.joined(selected.groupBy, separator: ", ")
        if !selected.groupBy.isEmpty { sql += " GROUP BY " + grouping.sql }
        if !order.isEmpty { sql += " ORDER BY " + order.joined(separator: ", ") }
        if paged && (plan.limit > 0 || plan.offset > 0) {
            sql += " LIMIT \(plan.limit > 0 ? String(plan.limit) : dialect.noLimit) OFFSET \(plan.offset)"
        }
        return SQLFragment(sql: sql, bindings: selected.columns.bindings + (condition?.bindings ?? []) + grouping.bindings)
    }

    func prepare(_ query: SQLFragment, on connection: Database) throws -> Database.Statement {
        let statement = try connection.statement(query.sql)
        statement.bind(query.bindings)
        return statement
    }
}

/// Destination rows of one owner in a row: rows come through the foreign key's index, so
/// consecutive rows mostly share an owner, and a run is filed once rather than each row by
/// itself.
private struct RowRun {
    private var ownerKey: Int64?
    private var rows: [RowSnapshot] = []

    mutating func add(_ row: RowSnapshot, ownerKey: Int64, flush: (Int64, [RowSnapshot]) -> Void) {
        if ownerKey != self.ownerKey {
            finish(flush)
            self.ownerKey = ownerKey
        }
        rows.append(row)
    }

    /// Hands the run over (without copying it) and starts an empty one.
    mutating func finish(_ flush: (Int64, [RowSnapshot]) -> Void) {
        guard let ownerKey, !rows.isEmpty else { return }
        let run = rows
        rows = []
        flush(ownerKey, run)
    }
}
