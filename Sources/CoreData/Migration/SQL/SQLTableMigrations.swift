/// The table steps of an in-place migration.
///
/// Each destination table is either the source table altered in place (when its rows stay
/// together and its columns are only added, renamed or filled) or a new table filled by one
/// `INSERT … SELECT` from its source table. Steps come in three groups, so that every copy reads
/// the source tables before any of them changes: copies into new tables, then alterations, then
/// dropping the old tables and giving the new ones their names.
///
/// A migration that defers its cleanup also alters tables in place whose removed columns would
/// otherwise make it copy them, keeping those columns, and keeps removed tables whose names no
/// new table takes: `deferredTasks` drops them later.
struct SQLTableMigrations {
    private(set) var copySteps: [SQLMigrationStep] = []
    private(set) var alterSteps: [SQLMigrationStep] = []
    /// The drops a migration that defers its cleanup leaves for later.
    private(set) var deferredTasks: [DeferredCleanupTask] = []
    /// Source tables that survive, altered or unchanged.
    private var keptTables: Set<String> = []
    /// Tables to rename once the old ones are gone: (temporary name, final name).
    private var renames: [(from: String, to: String)] = []
    /// Source tables nothing keeps, dropped before the renames.
    private var droppedTables: [String] = []
    private let planner: SQLMigrationPlanner

    init(planner: SQLMigrationPlanner) throws {
        self.planner = planner
        for table in planner.destination.tables {
            try migrate(table)
        }
        var seen = Set<String>()
        for joinTable in planner.destination.joinTables.values.sorted(by: { $0.name < $1.name }) where seen.insert(joinTable.name).inserted {
            try migrate(joinTable)
        }
        let sourceTables = planner.source.tables.map(\.name) + Set(planner.source.joinTables.values.map(\.name)).sorted()
        let reused = Set(renames.map(\.to))
        for table in sourceTables where !keptTables.contains(table) {
            if planner.defersCleanup && !reused.contains(table) {
                deferredTasks.append(.dropTable(table))
            } else {
                droppedTables.append(table)
            }
        }
    }

    /// Drops the source tables nothing kept and gives the new tables their names.
    var finishingSteps: [SQLMigrationStep] {
        droppedTables.map { SQLMigrationStep.sql("DROP TABLE \($0)") } + renames.map { SQLMigrationStep.sql("ALTER TABLE \($0.from) RENAME TO \($0.to)") }
    }

    private static func temporaryName(for table: String) -> String {
        "Z_MIGRATING_" + table
    }

    // MARK: Entity tables

    private mutating func migrate(_ table: SQLSchema.Table) throws {
        let moves = planner.moves(into: table.name)
        let sourceTables = Set(moves.map(\.sourceTable))
        guard sourceTables.count <= 1 else {
            throw SQLMigrationPlanner.needsObjects("table \(table.name) would hold rows of \(sourceTables.sorted().joined(separator: " and ")), whose primary keys may collide.")
        }
        let columns = table.columns.dropFirst(3).map(\.name)
        let plans = try Dictionary(uniqueKeysWithValues: columns.map { ($0, try planner.columnPlan($0, moves: moves)) })
        if let sourceTable = sourceTables.first, let alteration = alteration(of: sourceTable, into: table, plans: plans, moves: moves) {
            alterSteps += alteration.steps
            deferredTasks += alteration.leftoverColumns.map { .dropColumn(table: table.name, column: $0) }
            keptTables.insert(sourceTable)
            if sourceTable != table.name {
                alterSteps.append(.sql("ALTER TABLE \(sourceTable) RENAME TO \(Self.temporaryName(for: table.name))"))
                renames.append((Self.temporaryName(for: table.name), table.name))
            }
            return
        }
        let temporary = Self.temporaryName(for: table.name)
        copySteps.append(.sql(SQLSchema.createStatement(for: table, named: temporary, in: planner.dialect)))
        renames.append((temporary, table.name))
        guard let sourceTable = sourceTables.first else { return }
        let entityNumber = moves.allSatisfy { $0.sourceNumber == $0.destinationNumber }
            ? "Z_ENT"
            : "CASE Z_ENT \(moves.map { "WHEN \($0.sourceNumber) THEN \($0.destinationNumber)" }.joined(separator: " ")) END"
        let values = columns.map { column in Self.selectExpression(plans[column] ?? .uniform(.null, destinationNumbers: []), moves: moves) }
        copySteps.append(.sql(
            "INSERT INTO \(temporary) (\((["Z_PK", "Z_ENT", "Z_OPT"] + columns).joined(separator: ", "))) "
                + "SELECT \((["Z_PK", entityNumber, "Z_OPT"] + values).joined(separator: ", ")) FROM \(sourceTable) "
                + "WHERE Z_ENT IN (\(moves.map { String($0.sourceNumber) }.joined(separator: ", ")))"
        ))
    }

    /// The SQL that reads a column's new value from a source row.
    private static func selectExpression(_ plan: SQLMigrationPlanner.ColumnPlan, moves: [SQLMigrationPlanner.EntityMove]) -> String {
        switch plan {
        case .uniform(let value, let numbers):
            if value == .null || moves.allSatisfy({ numbers.contains($0.destinationNumber) }) { return value.sql }
            let cases = moves.filter { numbers.contains($0.destinationNumber) }.map { "WHEN \($0.sourceNumber) THEN \(value.sql)" }
            return "CASE Z_ENT \(cases.joined(separator: " ")) ELSE NULL END"
        case .perEntity(let values):
            let cases = values.filter { $0.value != .null }.sorted { $0.key < $1.key }.map { "WHEN \($0.key) THEN \($0.value.sql)" }
            return cases.isEmpty ? "NULL" : "CASE Z_ENT \(cases.joined(separator: " ")) ELSE NULL END"
        }
    }

    /// The steps that turn a source table into a destination table in place, and the source
    /// columns the destination no longer has; nil when its columns do not allow it (a column is
    /// converted or computed per entity, or dropped by a migration that does not defer it).
    private func alteration(of sourceTable: String, into table: SQLSchema.Table, plans: [String: SQLMigrationPlanner.ColumnPlan], moves: [SQLMigrationPlanner.EntityMove]) -> (steps: [SQLMigrationStep], leftoverColumns: [String])? {
        guard planner.moves.allSatisfy({ $0.sourceTable != sourceTable || $0.destinationTable == table.name }),
              let existing = planner.source.tables.first(where: { $0.name == sourceTable })?.columns.dropFirst(3).map(\.name) else { return nil }
        var renamed: [(from: String, to: String)] = []
        var added: [(name: String, type: String)] = []
        var fills: [String] = []
        var used = Set<String>()
        let allNumbers = Set(moves.map(\.destinationNumber))
        func restriction(_ numbers: [Int64]) -> String {
            Set(numbers) == allNumbers ? "" : "Z_ENT IN (\(numbers.map(String.init).joined(separator: ", ")))"
        }
        for (column, type) in table.columns.dropFirst(3) {
            guard case .uniform(let value, let numbers)? = plans[column] else { return nil }
            switch value {
            case .null, .literal:
                guard !existing.contains(column) else { return nil }
                added.append((column, type))
                if case .literal(let literal) = value {
                    let condition = restriction(numbers)
                    fills.append("UPDATE \(sourceTable) SET \(column) = \(literal)" + (condition.isEmpty ? "" : " WHERE \(condition)"))
                }
            case .column(let sourceColumn), .columnOrDefault(let sourceColumn, _):
                guard existing.contains(sourceColumn), used.insert(sourceColumn).inserted,
                      sourceColumn == column || !existing.contains(column) else { return nil }
                if sourceColumn != column { renamed.append((sourceColumn, column)) }
                if case .columnOrDefault(_, let literal) = value {
                    let condition = ["\(column) IS NULL", restriction(numbers)].filter { !$0.isEmpty }.joined(separator: " AND ")
                    fills.append("UPDATE \(sourceTable) SET \(column) = \(literal) WHERE \(condition)")
                }
            case .expression:
                return nil
            }
        }
        let leftoverColumns = existing.filter { !used.contains($0) }
        guard leftoverColumns.isEmpty || planner.defersCleanup else { return nil }
        var steps: [SQLMigrationStep] = []
        let droppedNumbers = planner.source.entities
            .filter { planner.source.mapping(for: $0)?.table == sourceTable && !$0.isAbstract }
            .compactMap { planner.source.mapping(for: $0)?.number }
            .filter { planner.destinationNumber(forSourceNumber: $0) == nil }
        if !droppedNumbers.isEmpty {
            steps.append(.sql("DELETE FROM \(sourceTable) WHERE Z_ENT IN (\(droppedNumbers.map(String.init).joined(separator: ", ")))"))
        }
        steps += renamed.map { .sql("ALTER TABLE \(sourceTable) RENAME COLUMN \($0.from) TO \($0.to)") }
        steps += added.map { .sql("ALTER TABLE \(sourceTable) ADD COLUMN \($0.name) \(planner.dialect.declaration($0.type))") }
        let renumbered = moves.filter { $0.sourceNumber != $0.destinationNumber }
        if !renumbered.isEmpty {
            let cases = renumbered.map { "WHEN \($0.sourceNumber) THEN \($0.destinationNumber)" }.joined(separator: " ")
            steps.append(.sql("UPDATE \(sourceTable) SET Z_ENT = CASE Z_ENT \(cases) END WHERE Z_ENT IN (\(renumbered.map { String($0.sourceNumber) }.joined(separator: ", ")))"))
        }
        return (steps + fills.map(SQLMigrationStep.sql), leftoverColumns)
    }

    // MARK: Join tables

    /// A join table is kept when its name and columns are unchanged, and otherwise rebuilt from
    /// the source's pairs: another join table, or the foreign keys of a relationship that was
    /// to-one (or whose inverse was).
    private mutating func migrate(_ joinTable: SQLSchema.JoinTable) throws {
        let owner = joinTable.owner
        var pairs = try planner.sourceRelationship(for: owner).flatMap { RelationshipPairs(of: $0, in: planner.source) }
        if pairs == nil, let inverse = owner.inverseRelationship {
            pairs = try planner.sourceRelationship(for: inverse).flatMap { RelationshipPairs(of: $0, in: planner.source) }?.reversed
        }
        if let pairs, let existing = pairs.joinTable, existing.name == joinTable.name,
           (pairs.source, pairs.destination) == (joinTable.sourceColumn, joinTable.destinationColumn),
           existing.orderColumns == joinTable.orderColumns {
            keptTables.insert(existing.name)
            return
        }
        let temporary = Self.temporaryName(for: joinTable.name)
        copySteps.append(.sql(SQLSchema.createStatement(for: joinTable, named: temporary, in: planner.dialect)))
        renames.append((temporary, joinTable.name))
        guard let pairs else { return }
        var targets = [joinTable.sourceColumn, joinTable.destinationColumn]
        var values = [pairs.source, pairs.destination]
        if let order = joinTable.orderColumns[joinTable.destinationColumn] {
            targets.append(order)
            values.append(pairs.destinationPosition)
        }
        if let order = joinTable.orderColumns[joinTable.sourceColumn] {
            targets.append(order)
            values.append(pairs.sourcePosition)
        }
        copySteps.append(.sql(planner.dialect.insertIgnoringDuplicates(into: temporary, columns: targets, select: "SELECT \(values.joined(separator: ", ")) FROM \(pairs.fromClause)")))
    }
}
