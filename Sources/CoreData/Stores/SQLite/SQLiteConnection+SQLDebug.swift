import CSQLite
import Logging

// The SQL debug log of a connection (`CoreDataLog.sql`, see its levels): each statement once it
// has run, with its time; its bound values from level 2; and from level 3, the plan of each
// query the first time the connection prepares it.
extension SQLiteConnection {
    /// Starts logging the connection's statements when the SQL debug switch is on.
    func logStatementsAtSQLDebugLevel() {
        guard CoreDataLog.sqlDebugLevel > 0 else { return }
        sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_PROFILE), { _, _, statement, nanoseconds in
            SQLiteConnection.logRun(of: OpaquePointer(statement), nanoseconds: nanoseconds?.load(as: Int64.self) ?? 0)
            return 0
        }, nil)
    }

    private static func logRun(of statement: OpaquePointer?, nanoseconds: Int64) {
        guard let statement, let text = sqlite3_sql(statement).map({ String(cString: $0) }), !text.hasPrefix("EXPLAIN") else { return }
        let sql: String
        if CoreDataLog.sqlDebugLevel >= 2, let expanded = sqlite3_expanded_sql(statement) {
            sql = String(cString: expanded)
            sqlite3_free(expanded)
        } else {
            sql = text
        }
        CoreDataLog.sql.debug("sql: \(sql)")
        CoreDataLog.sql.debug("annotation: sql execution time: \(String(format: "%.6f", Double(nanoseconds) / 1e9))s")
    }

    /// Logs the plan SQLite chooses for a query, from SQL debug level 3.
    func logQueryPlanAtSQLDebugLevel(of sql: String) {
        guard CoreDataLog.sqlDebugLevel >= 3, sql.hasPrefix("SELECT") else { return }
        var raw: OpaquePointer?
        guard sqlite3_prepare_v2(handle, "EXPLAIN QUERY PLAN " + sql, -1, &raw, nil) == SQLITE_OK, let raw else { return }
        defer { sqlite3_finalize(raw) }
        while sqlite3_step(raw) == SQLITE_ROW {
            let detail = sqlite3_column_text(raw, 3).map { String(cString: $0) } ?? ""
            CoreDataLog.sql.debug("details: SQLite: EXPLAIN QUERY PLAN: \(detail)")
        }
    }
}
