/// One step of an in-place SQLite migration, run inside the migration's transaction.
struct SQLiteMigrationStep {
    /// What the step does, for `--dry-run` listings and debugging.
    let summary: String
    let run: (SQLiteConnection) throws -> Void

    /// A step that runs SQL.
    static func sql(_ statement: String) -> SQLiteMigrationStep {
        SQLiteMigrationStep(summary: statement) { try $0.execute(statement) }
    }

    /// A step that fails the migration with `error` when `query` returns a row.
    static func requireNoRows(_ query: String, otherwise error: NSError) -> SQLiteMigrationStep {
        SQLiteMigrationStep(summary: "check: \(query)") { connection in
            let statement = try connection.statement(query)
            defer { statement.reset() }
            if try statement.step() { throw error }
        }
    }
}
