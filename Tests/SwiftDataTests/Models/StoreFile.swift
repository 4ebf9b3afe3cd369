@testable import CoreData
import Foundation

/// What a store file holds, read with SQL as another program would read it.
enum StoreFile {
    /// The rows of a query that selects `width` columns, each value as SQLite's shell prints it.
    static func rows(_ url: URL, _ sql: String, width: Int) throws -> [[String]] {
        let connection = try SQLiteConnection(path: url.path, readOnly: true, create: false)
        defer { connection.close() }
        let statement = try connection.statement(sql)
        var rows: [[String]] = []
        while try statement.step() {
            rows.append((0..<width).map { text(of: statement.value(at: Int32($0))) })
        }
        return rows
    }

    /// The names of a table's columns, in declaration order.
    static func columns(_ url: URL, table: String) throws -> [String] {
        try rows(url, "SELECT name FROM pragma_table_info('\(table)') ORDER BY cid", width: 1).compactMap(\.first)
    }

    private static func text(of value: SQLValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let integer): "\(integer)"
        case .real(let real): "\(real)"
        case .text(let text): text
        case .blob(let data): "\(data.count) bytes"
        }
    }
}
