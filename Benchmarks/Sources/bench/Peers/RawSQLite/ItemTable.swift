import Foundation

/// The Core Data-shaped table of the `Item` entity (10 Int64 attributes `i0`…`i9`), as the raw and
/// GRDB peers create it and as our SQLite store lays it out (`ZITEM`, spec/store-format.md), plus
/// the checks the harness runs on store files.
enum ItemTable {
    /// Attributes per object.
    static let attributeCount = 10

    /// `ZI0` … `ZI9`.
    static let attributeColumns = (0..<attributeCount).map { "ZI\($0)" }

    /// The table, with the columns Core Data adds to every entity table.
    static let createSQL = """
        CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, \
        \(attributeColumns.map { "\($0) INTEGER" }.joined(separator: ", ")))
        """

    /// One row per execution: `Z_PK`, `Z_ENT`, `Z_OPT`, then the ten attributes.
    static let insertSQL = """
        INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, \(attributeColumns.joined(separator: ", "))) \
        VALUES (\(Array(repeating: "?", count: 3 + attributeCount).joined(separator: ", ")))
        """

    /// The ten attributes of every row.
    static let selectAttributesSQL = "SELECT \(attributeColumns.joined(separator: ", ")) FROM ZITEM"

    /// The entity number the raw and GRDB peers write in `Z_ENT`.
    static let entityNumber: Int64 = 1

    /// The `Z_OPT` (optimistic-locking version) of every row of the shared fixture: 1, as our
    /// store writes it on insert.
    static let fixtureVersion: Int64 = 1

    /// The statement our store runs to save one changed attribute of one object (column
    /// `Z<ATTRIBUTE>`, captured with `COREDATA_SQL_DEBUG=1`): it bumps the version and sets the
    /// value (parameter 1) of the row whose `Z_PK` is parameter 2, if its version is still
    /// parameter 3.
    static func updateAttributeSQL(_ attribute: String) -> String {
        "UPDATE ZITEM SET Z_OPT = Z_OPT + 1, Z\(attribute.uppercased()) = ? WHERE Z_PK = ? AND Z_OPT = ?"
    }

    /// The sum of every attribute of `count` objects where object `i` holds `(i, i, …, i)`.
    static func attributeSum(count: Int) -> Int64 {
        let n = Int64(count)
        return Int64(attributeCount) * (n * (n - 1) / 2)
    }

    /// What ``storeChecksum(at:)`` reads from a store holding those `count` objects.
    static func expectedStoreChecksum(count: Int) -> [Int64] {
        [Int64(count), attributeSum(count: count)]
    }

    /// The row count and the sum of every attribute of `ZITEM` in the store at `url`.
    static func storeChecksum(at url: URL) throws -> [Int64] {
        let connection = try SQLiteConnection(path: url.path)
        defer { connection.close() }
        let sum = attributeColumns.joined(separator: " + ")
        return try connection.integers("SELECT count(*), coalesce(sum(\(sum)), 0) FROM ZITEM")
    }

    /// Folds the write-ahead log of the store at `url` into the main file, so that copying the main
    /// file alone copies the whole store.
    static func checkpoint(at url: URL) throws {
        let connection = try SQLiteConnection(path: url.path)
        defer { connection.close() }
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}
