/// Inserts rows into one table, several rows per `INSERT` where the database answers each
/// statement over the network (a round trip per row would cost more than the rows), one row per
/// statement where it runs in the process (SQLite's prepared statement is cheapest reused).
package struct SQLRowInserter<Database: SQLDatabase> {
    private let database: Database
    private let table: String
    private let columns: [String]
    /// The most rows one statement inserts.
    private let rowsPerStatement: Int
    /// The values of the rows not inserted yet, row after row.
    private var values: [SQLValue] = []
    private var rowCount = 0
    /// The statement of `rowsPerStatement` rows, prepared once.
    private var fullStatement: Database.Statement?

    /// An inserter of rows of `columns`, at most `rowsPerStatement` rows and `maximumParameters`
    /// values per statement.
    package init(into table: String, columns: [String], database: Database, rowsPerStatement: Int, maximumParameters: Int) {
        self.database = database
        self.table = table
        self.columns = columns
        self.rowsPerStatement = max(1, min(rowsPerStatement, maximumParameters / max(columns.count, 1)))
    }

    /// Adds a row of values, one per column; it is inserted by this call or a later one.
    package mutating func insert(_ row: [SQLValue]) throws {
        values += row
        rowCount += 1
        if rowCount == rowsPerStatement { try flush() }
    }

    /// Inserts the rows added so far.
    package mutating func flush() throws {
        guard rowCount > 0 else { return }
        let statement = try rowCount == rowsPerStatement ? preparedFullStatement() : database.statement(sql(rows: rowCount))
        statement.bind(values)
        try statement.run()
        values.removeAll(keepingCapacity: true)
        rowCount = 0
    }

    private mutating func preparedFullStatement() throws -> Database.Statement {
        if let fullStatement {
            fullStatement.reset()
            return fullStatement
        }
        let statement = try database.statement(sql(rows: rowsPerStatement))
        fullStatement = statement
        return statement
    }

    private func sql(rows: Int) -> String {
        let row = "(" + SQLPredicateCompiler.placeholders(columns.count) + ")"
        return "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES " + Array(repeating: row, count: rows).joined(separator: ", ")
    }
}
