// Batch deletes that need no list of their rows. When no delete rule asks to visit the
// destinations of the deleted rows (cascade, deny) and the result does not name them, the rows are
// found once, into a temporary table, and every statement (history, foreign keys, join tables,
// the delete itself) works from that table, so that memory does not grow with the number of rows.
extension RelationalStore {
    /// Whether deleting rows of these entities must visit their destinations first: a cascade or
    /// deny rule.
    static func followsDestinations(deleting entities: [NSEntityDescription]) -> Bool {
        entities.contains { entity in
            entity.relationshipsByName.values.contains { $0.deleteRule == .cascadeDeleteRule || $0.deleteRule == .denyDeleteRule }
        }
    }

    /// The connection's temporary table of the rows a delete matched.
    private var matchedRowsTable: String { dialect.temporaryTable("Z_BATCHDELETE") }

    /// The rows the table of matched rows holds.
    private var matchedKeys: String { "SELECT Z_PK FROM \(matchedRowsTable)" }

    /// Deletes the rows a plan matches, clearing the foreign keys and join rows that refer to
    /// them, in one transaction; the outcome counts them without listing them.
    func deleteWithoutListing(_ plan: FetchPlan, schema: SQLSchema) throws -> BatchOutcome {
        let mapping = try storedMapping(of: plan.entity, in: schema)
        try writingDatabase().0.execute("CREATE TEMP TABLE IF NOT EXISTS Z_BATCHDELETE (Z_PK \(dialect.declaration("INTEGER PRIMARY KEY")), Z_ENT \(dialect.declaration("INTEGER")))")
        return try batchTransaction { connection, _ in
            defer { try? connection.execute("DELETE FROM \(matchedRowsTable)") }
            let matching = try select(plan: plan, schema: schema, paged: true) { _, _ in SQLProjection(columns: SQLFragment(sql: "t0.Z_PK, t0.Z_ENT")) }
            try prepare(SQLFragment(sql: "INSERT INTO \(matchedRowsTable) (Z_PK, Z_ENT) \(matching.sql)", bindings: matching.bindings), on: connection).run()
            let count = connection.changes
            guard count > 0 else { return BatchOutcome(unlistedCount: 0) }
            let references = schema.foreignKeys(referringTo: plan.entity)
            if var recorder = try historyRecorder() {
                try recordDeletes(of: plan.entities, into: &recorder, schema: schema)
                try recordClearedReferences(references, deletedFrom: mapping.table, into: &recorder, schema: schema)
                try recorder.finish()
            }
            for reference in references {
                try connection.execute("\(reference.clearingSQL) WHERE \(reference.column) IN (\(matchedKeys))")
            }
            var joinTables = Set<String>()
            for relationship in plan.entities.flatMap(\.relationshipsByName.values) {
                guard let joinTable = schema.joinTable(for: relationship), joinTables.insert(joinTable.name).inserted else { continue }
                try connection.execute("DELETE FROM \(joinTable.name) WHERE \(joinTable.columns(for: relationship).source) IN (\(matchedKeys))")
            }
            try connection.execute("DELETE FROM \(mapping.table) WHERE Z_PK IN (\(matchedKeys))")
            return BatchOutcome(unlistedCount: count)
        }
    }

    /// Records a delete, with its tombstone, for each matched row, one entity at a time.
    private func recordDeletes(of entities: [NSEntityDescription], into recorder: inout PersistentHistoryRecorder<Database>, schema: SQLSchema) throws {
        let (connection, _) = try writingDatabase()
        for entity in entities where !entity.isAbstract {
            guard let mapping = schema.mapping(for: entity) else { continue }
            let tombstone = entity.layout.preservedAttributeSlots.map { mapping.columnBySlot[$0].map { "t.\($0)" } ?? "NULL" }
            let rows = try connection.statement(
                "SELECT b.Z_PK\(tombstone.map { ", \($0)" }.joined()) FROM \(matchedRowsTable) b JOIN \(mapping.table) t ON t.Z_PK = b.Z_PK WHERE b.Z_ENT = ?"
            )
            rows.bind(mapping.number, at: 1)
            while try rows.step() {
                try recorder.recordDelete(of: objectID(for: entity, primaryKey: rows.int64(at: 0)), tombstone: tombstone.indices.map { rows.value(at: Int32($0 + 1)) })
            }
        }
    }

    /// Records an update of each row whose foreign key to a matched row is about to be cleared
    /// (leaving out the matched rows themselves).
    private func recordClearedReferences(_ references: [SQLSchema.ForeignKey], deletedFrom table: String, into recorder: inout PersistentHistoryRecorder<Database>, schema: SQLSchema) throws {
        let (connection, _) = try writingDatabase()
        for reference in references {
            let survivors = reference.table == table ? " AND Z_PK NOT IN (\(matchedKeys))" : ""
            let rows = try connection.statement("SELECT Z_PK, Z_ENT FROM \(reference.table) WHERE \(reference.column) IN (\(matchedKeys))\(survivors)")
            while try rows.step() {
                guard let entity = schema.rowEntity(number: rows.int64(at: 1)) else { continue }
                try recorder.recordUpdate(of: objectID(for: entity, primaryKey: rows.int64(at: 0)), slots: [reference.slot])
            }
        }
    }
}
