/// One step of an in-place migration of a relational store, run inside the migration's
/// transaction on the store's database.
package struct SQLMigrationStep {
    /// What the step does, for `--dry-run` listings and debugging.
    package let summary: String
    package let run: (any SQLDatabase) throws -> Void

    /// A step that runs SQL.
    static func sql(_ statement: String) -> SQLMigrationStep {
        SQLMigrationStep(summary: statement) { try $0.execute(statement) }
    }

    /// A step that fails the migration with `error` when `query` returns a row.
    static func requireNoRows(_ query: String, otherwise error: NSError) -> SQLMigrationStep {
        SQLMigrationStep(summary: "check: \(query)") { connection in
            let statement = try connection.statement(query)
            defer { statement.reset() }
            if try statement.step() { throw error }
        }
    }
}
