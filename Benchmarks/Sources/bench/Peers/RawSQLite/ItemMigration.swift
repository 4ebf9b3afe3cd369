import Foundation

/// The schema changes W8 migrates the `Item` store through, and the SQL that makes each by hand.
enum ItemMigration: CaseIterable {
    /// Adds `note`, an optional String.
    case addAttribute
    /// Renames `i9` to `total` and turns `i8` from Integer 64 into Double.
    case renameAndWiden
    /// Indexes `i0`.
    case addIndex

    var workloadName: String {
        switch self {
        case .addAttribute: "W8a"
        case .renameAndWiden: "W8b"
        case .addIndex: "W8c"
        }
    }

    var summary: String {
        switch self {
        case .addAttribute: "add an optional attribute"
        case .renameAndWiden: "rename an attribute and widen another to Double (a table rebuild)"
        case .addIndex: "add an index"
        }
    }

    /// The statements that make the change by hand, run in one transaction.
    var sql: [String] {
        switch self {
        case .addAttribute:
            return ["ALTER TABLE ZITEM ADD COLUMN ZNOTE VARCHAR"]
        case .renameAndWiden:
            let kept = (0..<8).map { "ZI\($0)" }
            let columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"] + kept.map { "\($0) INTEGER" } + ["ZTOTAL INTEGER", "ZI8 FLOAT"]
            let values = ["Z_PK", "Z_ENT", "Z_OPT"] + kept + ["ZI9", "CAST(ZI8 AS REAL)"]
            return [
                "CREATE TABLE ZITEM_NEW ( \(columns.joined(separator: ", ")) )",
                "INSERT INTO ZITEM_NEW SELECT \(values.joined(separator: ", ")) FROM ZITEM",
                "DROP TABLE ZITEM",
                "ALTER TABLE ZITEM_NEW RENAME TO ZITEM",
            ]
        case .addIndex:
            return ["CREATE INDEX Z_Item_i0 ON ZITEM (ZI0 COLLATE BINARY ASC)"]
        }
    }

    /// The row count, the sum of `i0`…`i7` (present in every version) and the numbers of columns
    /// and indexes of `ZITEM` in the store at `url`.
    static func storeChecksum(at url: URL) throws -> [Int64] {
        let connection = try SQLiteConnection(path: url.path)
        defer { connection.close() }
        let sum = (0..<8).map { "ZI\($0)" }.joined(separator: " + ")
        return try connection.integers("SELECT count(*), coalesce(sum(\(sum)), 0) FROM ZITEM")
            + connection.integers("SELECT count(*) FROM pragma_table_info('ZITEM')")
            + connection.integers("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ZITEM'")
    }
}
