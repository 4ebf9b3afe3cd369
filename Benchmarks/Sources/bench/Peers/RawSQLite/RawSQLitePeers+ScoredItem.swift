import BenchSQLite
import Foundation

extension RawSQLitePeers {
    /// One row of `ZSCOREDITEM` as the raw peers materialize it: every column our store selects.
    struct ScoredItem {
        var primaryKey, entity, version: Int64
        var created: Double
        var flag: Bool
        var name: String
        var price: Double
        var score, unindexedScore: Int64

        /// The position of `ZSCORE` in ``ScoredItemTable/selectList``.
        static let scoreColumn: Int32 = 7

        /// The row `statement` is on, selected with ``ScoredItemTable/selectList``.
        init(row statement: OpaquePointer) {
            primaryKey = sqlite3_column_int64(statement, 0)
            entity = sqlite3_column_int64(statement, 1)
            version = sqlite3_column_int64(statement, 2)
            created = sqlite3_column_double(statement, 3)
            flag = sqlite3_column_int64(statement, 4) != 0
            name = sqlite3_column_text(statement, 5).map { String(cString: $0) } ?? ""
            price = sqlite3_column_double(statement, 6)
            score = sqlite3_column_int64(statement, Self.scoreColumn)
            unindexedScore = sqlite3_column_int64(statement, 8)
        }
    }

    /// The rows a query of ``ScoredItemTable`` returns, materialized, with its parameters bound
    /// (integers and text).
    static func fetchScoredItems(_ sql: String, bindings: [Any] = [], from connection: SQLiteConnection) throws -> [ScoredItem] {
        let statement = try connection.prepare(sql)
        try bind(bindings, to: statement)
        var items: [ScoredItem] = []
        while try statement.step() {
            items.append(ScoredItem(row: statement.handle))
        }
        return items
    }

    /// Binds integers and strings to a statement's parameters, in order.
    static func bind(_ values: [Any], to statement: SQLiteStatement) throws {
        for (offset, value) in values.enumerated() {
            let position = Int32(offset + 1)
            switch value {
            case let integer as Int64:
                sqlite3_bind_int64(statement.handle, position, integer)
            case let text as String:
                sqlite3_bind_text(statement.handle, position, text, -1, sqliteTransient)
            default:
                throw BenchmarkError.unexpectedValue(peer: "raw", detail: "cannot bind \(value)")
            }
        }
    }

    /// `SQLITE_TRANSIENT`: SQLite copies the bound bytes. The C macro does not import into Swift.
    static let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Creates `ZSCOREDITEM` as our store lays it out, with its score index, and fills it with
    /// `count` rows of ``ScoredItemTable/values(at:count:)`` in one transaction. The fixture builder
    /// used when our Core Data is not compiled in.
    static func createScoredItemStore(at url: URL, count: Int, settings: StoreSettings) throws {
        let connection = try SQLiteConnection(path: url.path, settings: settings)
        defer { connection.close() }
        try connection.execute(ScoredItemTable.createSQL)
        try connection.execute("BEGIN")
        let statement = try connection.prepare(ScoredItemTable.insertSQL)
        let handle = statement.handle
        for index in 0..<count {
            let values = ScoredItemTable.values(at: index, count: count)
            sqlite3_bind_int64(handle, 1, Int64(index + 1))
            sqlite3_bind_int64(handle, 2, ItemTable.entityNumber)
            sqlite3_bind_int64(handle, 3, 1)
            sqlite3_bind_double(handle, 4, values.created)
            sqlite3_bind_int64(handle, 5, values.flag ? 1 : 0)
            sqlite3_bind_text(handle, 6, values.name, -1, sqliteTransient)
            sqlite3_bind_double(handle, 7, values.price)
            sqlite3_bind_int64(handle, 8, values.score)
            sqlite3_bind_int64(handle, 9, values.unindexedScore)
            try connection.check(sqlite3_step(handle), sql: ScoredItemTable.insertSQL)
            sqlite3_reset(handle)
        }
        try connection.execute("COMMIT")
    }
}
