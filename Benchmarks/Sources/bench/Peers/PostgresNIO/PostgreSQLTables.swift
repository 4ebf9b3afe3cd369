/// The `Item` and `ScoredItem` tables as our PostgreSQL store lays them out: the SQLite layout of
/// ``ItemTable`` and ``ScoredItemTable`` in PostgreSQL types (64-bit integers as `BIGINT`, dates
/// and doubles as `DOUBLE PRECISION`, strings as `TEXT`), under unquoted names, which PostgreSQL
/// keeps in lower case. The statements the raw PostgresNIO peers run are the SQLite peers' with
/// numbered parameters (`$1`, `$2`, …), which is how our store sends its own.
enum PostgreSQLTables {
    /// `sql` with each `?` numbered in order, as PostgreSQL's extended protocol reads parameters.
    /// The statements here have no `?` inside quotes.
    static func numbered(_ sql: String) -> String {
        var count = 0
        return sql.split(separator: "?", omittingEmptySubsequences: false).reduce(into: "") { numbered, part in
            if count > 0 {
                numbered += "$\(count)"
            }
            numbered += part
            count += 1
        }
    }

    // MARK: Item

    /// `ZITEM` as our store creates it.
    static let createItemSQL = """
        CREATE TABLE ZITEM (Z_PK BIGINT PRIMARY KEY, Z_ENT BIGINT, Z_OPT BIGINT, \
        \(ItemTable.attributeColumns.map { "\($0) BIGINT" }.joined(separator: ", ")))
        """

    /// Rows per multi-row `INSERT` of the raw peer: 13,000 parameters, well under PostgreSQL's
    /// limit of 65,535 (our store sends about 10,000).
    static let itemsPerInsert = 1_000

    /// One `INSERT` of `rows` items: `Z_PK`, `Z_ENT`, `Z_OPT`, then the ten attributes of each.
    static func insertItemsSQL(rows: Int) -> String {
        let columns = 3 + ItemTable.attributeCount
        let tuples = (0..<rows).map { row in
            "(" + (1...columns).map { "$\(row * columns + $0)" }.joined(separator: ", ") + ")"
        }
        return "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, \(ItemTable.attributeColumns.joined(separator: ", "))) VALUES "
            + tuples.joined(separator: ", ")
    }

    /// The row count and the sum of every attribute of `ZITEM` (`sum` of `BIGINT` is `NUMERIC`,
    /// cast back).
    static let itemStoreChecksumSQL =
        "SELECT count(*), coalesce(sum(\(ItemTable.attributeColumns.joined(separator: " + "))), 0)::bigint FROM ZITEM"

    // MARK: ScoredItem

    /// `ZSCOREDITEM` as our store creates it, with the index of its fetch index on `score`.
    static let createScoredItemSQL = """
        CREATE TABLE ZSCOREDITEM (Z_PK BIGINT PRIMARY KEY, Z_ENT BIGINT, Z_OPT BIGINT, ZCREATED DOUBLE PRECISION, \
        ZFLAG BIGINT, ZNAME TEXT, ZPRICE DOUBLE PRECISION, ZSCORE BIGINT, ZUNINDEXEDSCORE BIGINT)
        """

    /// The index our store makes for `ScoredItemModel`'s fetch index on `score`.
    static let createScoreIndexSQL =
        "CREATE INDEX Z_\(ScoredItemTable.entityName)_\(ScoredItemTable.scoreIndexName) ON ZSCOREDITEM (ZSCORE)"

    /// Rows per multi-row `INSERT` when the raw peer builds the `ScoredItem` fixture.
    static let scoredItemsPerInsert = 1_000

    /// One `INSERT` of `rows` scored items, in ``ScoredItemTable/insertSQL``'s column order.
    static func insertScoredItemsSQL(rows: Int) -> String {
        let tuples = (0..<rows).map { row in
            "(" + (1...9).map { "$\(row * 9 + $0)" }.joined(separator: ", ") + ")"
        }
        return "INSERT INTO ZSCOREDITEM (Z_PK, Z_ENT, Z_OPT, ZCREATED, ZFLAG, ZNAME, ZPRICE, ZSCORE, ZUNINDEXEDSCORE) VALUES "
            + tuples.joined(separator: ", ")
    }
}
