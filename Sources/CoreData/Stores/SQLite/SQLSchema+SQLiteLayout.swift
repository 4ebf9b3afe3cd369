extension SQLSchema.StoredLayout {
    /// Reads the tables and their columns; `numbersByName` comes from `Z_PRIMARYKEY`.
    init(numbersByName: [String: Int64], connection: SQLiteConnection) throws {
        var columnsByTable: [String: Set<String>] = [:]
        let statement = try connection.statement("SELECT name FROM sqlite_master WHERE type = 'table'")
        var tables: [String] = []
        while try statement.step() {
            if let name = statement.string(at: 0) { tables.append(name) }
        }
        for table in tables {
            columnsByTable[table] = try connection.columns(of: table)
        }
        self.init(numbersByName: numbersByName, columnsByTable: columnsByTable)
    }
}
