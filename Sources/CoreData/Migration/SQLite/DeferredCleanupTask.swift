/// A piece of cleanup that a deferred lightweight migration of a SQLite store postponed
/// (`NSPersistentStoreDeferredLightweightMigrationOptionKey`): the store works without it, only
/// larger (a removed column or table still holds its data) or slower (an index is missing).
///
/// The pending tasks are recorded in the store's metadata, so that they survive until the
/// program finishes them, in this launch or a later one. A task checks its target against the
/// store's current layout before it runs: it never drops a table or column the layout uses, and
/// does nothing when its target is already gone.
enum DeferredCleanupTask: Equatable {
    /// Drops the table of a removed entity or many-to-many relationship.
    case dropTable(String)
    /// Drops a column whose property was removed (SQLite rewrites the table's rows for it).
    case dropColumn(table: String, column: String)
    /// Creates the non-unique indexes the layout has and the store lacks.
    case createIndexes

    // MARK: Recording in the metadata

    /// The metadata key of the pending tasks, in this project's own form.
    static let metadataKey = "_NSDeferredLightweightMigrationTasks"

    /// The pending tasks recorded in a store's metadata; unreadable entries are skipped.
    static func pending(in metadata: [String: Any]) -> [DeferredCleanupTask] {
        let recorded = (metadata[metadataKey] as? [Any] ?? []).compactMap { $0 as? String }
        return recorded.compactMap(DeferredCleanupTask.init(recorded:))
    }

    /// The metadata with `tasks` recorded as the pending ones: with them and
    /// `NSPersistentStoreDeferredLightweightMigrationOptionKey` set to `true`, or with neither
    /// key when there are none left.
    static func recording(_ tasks: [DeferredCleanupTask], in metadata: [String: Any]) -> [String: Any] {
        var updated = metadata
        if tasks.isEmpty {
            updated[metadataKey] = nil
            updated[NSPersistentStoreDeferredLightweightMigrationOptionKey] = nil
        } else {
            updated[metadataKey] = tasks.map(\.recorded)
            updated[NSPersistentStoreDeferredLightweightMigrationOptionKey] = true
        }
        return updated
    }

    private init?(recorded: String) {
        let words = recorded.split(separator: " ").map(String.init)
        guard words.allSatisfy(Self.isIdentifier) else { return nil }
        switch (words.first, words.count) {
        case ("table", 2): self = .dropTable(words[1])
        case ("column", 3): self = .dropColumn(table: words[1], column: words[2])
        case ("indexes", 1): self = .createIndexes
        default: return nil
        }
    }

    private var recorded: String {
        switch self {
        case .dropTable(let table): "table \(table)"
        case .dropColumn(let table, let column): "column \(table) \(column)"
        case .createIndexes: "indexes"
        }
    }

    /// Whether a recorded word can be spliced into SQL: Core Data's table and column names are
    /// letters, digits and underscores.
    private static func isIdentifier(_ word: String) -> Bool {
        !word.isEmpty && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    // MARK: Running

    /// What the task does, for migration step listings.
    var summary: String {
        switch self {
        case .dropTable(let table): "drop the table \(table)"
        case .dropColumn(let table, let column): "drop the column \(table).\(column)"
        case .createIndexes: "create the missing indexes"
        }
    }

    /// Runs the task on a store whose current layout is `schema`, inside the caller's transaction.
    func run(on connection: SQLiteConnection, schema: SQLSchema) throws {
        switch self {
        case .dropTable(let table):
            let used = Set(schema.tables.map(\.name) + schema.joinTables.values.map(\.name))
            guard !used.contains(table), !Self.bookkeepingTables.contains(table), try connection.schemaObjectExists(table, type: "table") else { return }
            try connection.execute("DROP TABLE \(table)")
        case .dropColumn(let table, let column):
            guard let layout = schema.tables.first(where: { $0.name == table }), !layout.columns.contains(where: { $0.name == column }),
                  try connection.columns(of: table).contains(column) else { return }
            try connection.execute("ALTER TABLE \(table) DROP COLUMN \(column)")
        case .createIndexes:
            try SQLIndexes.synchronize(schema, on: connection, in: .sqlite, creatingNonUnique: true)
        }
    }

    /// Core Data's own tables, which no cleanup drops.
    private static let bookkeepingTables: Set<String> = ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"]
}
