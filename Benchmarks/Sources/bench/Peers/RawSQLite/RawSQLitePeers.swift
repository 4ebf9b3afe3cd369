import BenchSQLite
import Foundation

/// The raw-SQLite peers: the SQLite C API with prepared statements, the physical floor every other
/// peer is compared with. Each workload adds its peers in an extension (`RawSQLitePeers+W1.swift` …).
enum RawSQLitePeers {
    /// Creates the `ZITEM` table at `url` and fills it with `count` items, as the W1 raw peer does.
    /// The fixture builder used when our Core Data peer is not compiled in.
    static func createItemStore(at url: URL, count: Int, settings: StoreSettings) throws {
        let connection = try SQLiteConnection(path: url.path, settings: settings)
        defer { connection.close() }
        try connection.execute(ItemTable.createSQL)
        _ = try insertItems(count: count, into: connection)
    }

    /// Inserts `count` items (item `i` holds `Z_PK = i + 1` and `(i, …, i)`) in one transaction with
    /// one prepared statement. Returns the number of rows inserted.
    static func insertItems(count: Int, into connection: SQLiteConnection) throws -> Int64 {
        try connection.execute("BEGIN")
        let statement = try connection.prepare(ItemTable.insertSQL)
        let handle = statement.handle
        let lastColumn = Int32(3 + ItemTable.attributeCount)
        for index in 0..<count {
            let value = Int64(index)
            sqlite3_bind_int64(handle, 1, value + 1)
            sqlite3_bind_int64(handle, 2, ItemTable.entityNumber)
            sqlite3_bind_int64(handle, 3, 1)
            for column in 4...lastColumn {
                sqlite3_bind_int64(handle, column, value)
            }
            try connection.check(sqlite3_step(handle), sql: ItemTable.insertSQL)
            sqlite3_reset(handle)
        }
        try connection.execute("COMMIT")
        return Int64(count)
    }
}
