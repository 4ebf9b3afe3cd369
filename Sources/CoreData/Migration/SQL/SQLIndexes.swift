/// Brings a store's indexes in line with a layout.
enum SQLIndexes {
    /// Drops the indexes of the layout's tables that the layout does not have (or has in another
    /// form) and creates the missing ones; unchanged indexes stay, so a migration that adds a
    /// column rebuilds none.
    ///
    /// - Parameter creatingNonUnique: Whether to create the missing non-unique indexes; unique
    ///   ones, which enforce uniqueness constraints, are always created.
    /// - Returns: Whether non-unique indexes were left missing.
    @discardableResult
    static func synchronize(_ schema: SQLSchema, on connection: any SQLDatabase, in dialect: SQLDialect, creatingNonUnique: Bool) throws -> Bool {
        // A database that rewrites the definitions it keeps is compared by index names alone,
        // which name the table and columns.
        func comparable(_ sql: String) -> String {
            dialect.keepsIndexDefinitionsAsWritten ? normalizedSQL(sql) : ""
        }
        let tables = Set(schema.tables.map(\.name) + schema.joinTables.values.map(\.name))
        var existing: [String: String] = [:]
        let list = try connection.statement(dialect.indexCatalogQuery)
        while try list.step() {
            guard let name = list.string(at: 0), let table = list.string(at: 1), tables.contains(table) else { continue }
            existing[name] = comparable(list.string(at: 2) ?? "")
        }
        list.reset()
        var wantedByName: [String: String] = [:]
        for statement in schema.indexes.map(dialect.indexDeclaration) {
            // A database that folds the case of unquoted names lists them folded (upper case here).
            if let name = name(in: statement) { wantedByName[dialect.keepsIndexDefinitionsAsWritten ? name : name.uppercased()] = statement }
        }
        for (name, sql) in existing.sorted(by: { $0.key < $1.key }) where wantedByName[name].map(comparable) != sql {
            try connection.execute("DROP INDEX \(name)")
        }
        var leftMissing = false
        for (name, statement) in wantedByName.sorted(by: { $0.key < $1.key }) where existing[name] != comparable(statement) {
            guard creatingNonUnique || isUnique(statement) else {
                leftMissing = true
                continue
            }
            try connection.execute(statement)
        }
        return leftMissing
    }

    /// An index definition as SQLite keeps it, without the quotes a rename adds and without
    /// `IF NOT EXISTS`, which SQLite does not keep.
    private static func normalizedSQL(_ sql: String) -> String {
        sql.replacingOccurrences(of: " IF NOT EXISTS", with: "").replacingOccurrences(of: "\"", with: "")
    }

    private static func name(in statement: String) -> String? {
        let words = normalizedSQL(statement).split(separator: " ")
        guard let position = words.firstIndex(of: "INDEX"), position + 1 < words.count else { return nil }
        return String(words[position + 1])
    }

    private static func isUnique(_ statement: String) -> Bool {
        statement.hasPrefix("CREATE UNIQUE INDEX")
    }
}
