import Foundation

/// The entity of the 1M-row read workloads (W3, W4, W9): spec W1b's mixed `Item` (a String name,
/// an indexed Int64 score, a Double, a Date, a Bool) plus an unindexed copy of the score, named
/// `ScoredItem` so that it cannot be mistaken for W1's ten-integer `Item`. This enum holds what every
/// peer family shares: the values of each row, the queries' bounds, the expected checksums, and
/// the SQL the raw peers run, which is the SQL our SQLite store runs for the same requests
/// (checked with `COREDATA_SQL_DEBUG=1` and `EXPLAIN QUERY PLAN`, see README.md).
///
/// Our store lays the entity out as `ZSCOREDITEM(Z_PK, Z_ENT, Z_OPT, ZCREATED, ZFLAG, ZNAME, ZPRICE,
/// ZSCORE, ZUNINDEXEDSCORE)` (columns in property-name order) with the index the model's fetch
/// index description asks for on `ZSCORE`.
enum ScoredItemTable {
    /// The entity's name in our model.
    static let entityName = "ScoredItem"
    /// Its table.
    static let tableName = "ZSCOREDITEM"
    /// The name of the fetch index on `score` (our store names the SQL index `Z_<entity>_<name>`).
    static let scoreIndexName = "byScore"

    /// The values of one row.
    struct Values {
        /// Two letters chosen by `index % 100`, the first upper-cased on every other hundred, a
        /// dash, and the index: `"Cd-12323"`, `"cd-12423"`. A two-letter prefix matches 1% of rows.
        var name: String
        /// A permutation of `0..<count`, so that an index range lands on scattered rows.
        var score: Int64
        /// The same value as `score`, in a column without an index.
        var unindexedScore: Int64
        var price: Double
        /// Seconds since the reference date: another permutation of `0..<count`, so that sorting by
        /// it has no ties and an order of its own.
        var created: Double
        var flag: Bool
    }

    /// The letters of the name prefixes.
    private static let letters = Array("abcdefghij")

    /// The values of row `index` (0-based; its `Z_PK` is `index + 1`) of a table of `count` rows.
    static func values(at index: Int, count: Int) -> Values {
        let prefix = String([letters[index % 100 / 10], letters[index % 10]])
        let cased = (index / 100).isMultiple(of: 2) ? prefix.prefix(1).uppercased() + prefix.dropFirst() : prefix
        let score = permuted(index, by: 2_147_483_647, count: count)
        return Values(
            name: "\(cased)-\(index)",
            score: score,
            unindexedScore: score,
            price: Double(index) / 100,
            created: Double(permuted(index, by: 1_000_000_007, count: count)),
            flag: index.isMultiple(of: 2))
    }

    /// `index · prime mod count`: a permutation of `0..<count` while `count` is not a multiple of
    /// the prime (the product stays far below 2⁶³ for any count a benchmark uses).
    private static func permuted(_ index: Int, by prime: Int, count: Int) -> Int64 {
        Int64(index * prime % count)
    }

    // MARK: Queries

    /// The scores W3 and W4 select: 1% of the rows, from the middle of the range.
    static func scoreRange(count: Int) -> ClosedRange<Int64> {
        let lower = Int64(count / 2)
        return lower...(lower + Int64(max(count / 100, 1)) - 1)
    }

    /// The sum of the scores in ``scoreRange(count:)``: what a fetch of those rows adds up.
    static func scoreRangeSum(count: Int) -> Int64 {
        let range = scoreRange(count: count)
        return (range.lowerBound + range.upperBound) * Int64(range.count) / 2
    }

    /// The prefix of W3c's `name BEGINSWITH[c]`, in lower case: it matches `"Cd-…"` and `"cd-…"`.
    static let namePrefix = "cd"

    /// W3c's fetch limit.
    static let prefixFetchLimit = 50

    /// The sum of the scores of W3c's rows, worked out in memory: the rows whose name begins with
    /// ``namePrefix`` in any case, the first ``prefixFetchLimit`` by `created`.
    static func prefixFetchScoreSum(count: Int) -> Int64 {
        let matching = (0..<count).lazy.map { values(at: $0, count: count) }.filter { $0.name.lowercased().hasPrefix(namePrefix) }
        return matching.sorted { $0.created < $1.created }.prefix(prefixFetchLimit).reduce(0) { $0 + $1.score }
    }

    /// The sum of every score: what iterating over every row adds up (W9).
    static func scoreSum(count: Int) -> Int64 {
        Int64(count) * Int64(count - 1) / 2
    }

    // MARK: SQL

    /// The columns our store selects to load rows, in its order.
    static let selectList = "t0.Z_PK, t0.Z_ENT, t0.Z_OPT, t0.ZCREATED, t0.ZFLAG, t0.ZNAME, t0.ZPRICE, t0.ZSCORE, t0.ZUNINDEXEDSCORE"

    /// Every row (W9), as our store loads a fetch without predicate.
    static let selectAllSQL = "SELECT \(selectList) FROM ZSCOREDITEM t0"

    /// W3a: the rows whose indexed score lies between two bound parameters.
    static let selectByScoreSQL = "SELECT \(selectList) FROM ZSCOREDITEM t0 WHERE (t0.ZSCORE BETWEEN ? AND ?)"

    /// W3b: the same on the unindexed column.
    static let selectByUnindexedScoreSQL =
        "SELECT \(selectList) FROM ZSCOREDITEM t0 WHERE (t0.ZUNINDEXEDSCORE BETWEEN ? AND ?)"

    /// W3c: the first 50 rows by `created` whose name matches a bound `LIKE` pattern (`'cd%'`).
    /// Our store runs the same statement with its Unicode-aware `cd_search(t0.ZNAME, ?, 1, 0)` in
    /// place of `LIKE` (same plan: a scan and a sorter); a raw SQLite program uses `LIKE`, which is
    /// case-insensitive for ASCII.
    static let selectByPrefixSQL =
        "SELECT \(selectList) FROM ZSCOREDITEM t0 WHERE (t0.ZNAME LIKE ?) ORDER BY t0.ZCREATED ASC LIMIT \(prefixFetchLimit) OFFSET 0"

    /// W4a: the count our store runs for a request without predicate: without a `WHERE` clause,
    /// which SQLite answers with its `OP_Count` shortcut.
    static let countAllSQL = "SELECT COUNT(*) FROM ZSCOREDITEM t0"

    /// W4b: the count of the rows whose indexed score lies between two bound parameters.
    static let countByScoreSQL = "SELECT COUNT(*) FROM ZSCOREDITEM t0 WHERE (t0.ZSCORE BETWEEN ? AND ?)"

    /// W4c: the same on the unindexed column.
    static let countByUnindexedScoreSQL = "SELECT COUNT(*) FROM ZSCOREDITEM t0 WHERE (t0.ZUNINDEXEDSCORE BETWEEN ? AND ?)"

    /// W7's bound: the rows whose score is below it are the 10% the batch update and the batch
    /// delete change (100k of 1M).
    static func batchScoreBound(count: Int) -> Int64 {
        Int64(count / 10)
    }

    /// W7a: what a raw SQLite program writes for the batch update: `flag` set on the rows whose
    /// indexed score is below a bound parameter, with a new version (`Z_OPT`) as Core Data's batch
    /// update gives them.
    static let batchUpdateSQL = "UPDATE ZSCOREDITEM SET Z_OPT = Z_OPT + 1, ZFLAG = 1 WHERE ZSCORE < ?"

    /// W7b: the batch delete of the same rows.
    static let batchDeleteSQL = "DELETE FROM ZSCOREDITEM WHERE ZSCORE < ?"

    /// What W7 reads back from a peer's file: the row count, the sum of `flag` and the sum of
    /// `Z_OPT` of `ZSCOREDITEM`.
    static func batchStoreChecksum(at url: URL) throws -> [Int64] {
        let connection = try SQLiteConnection(path: url.path)
        defer { connection.close() }
        return try connection.integers("SELECT count(*), coalesce(sum(ZFLAG), 0), coalesce(sum(Z_OPT), 0) FROM ZSCOREDITEM")
    }

    /// The table as our store creates it, for the raw fixture builder used when our Core Data is
    /// not compiled in.
    static let createSQL = """
        CREATE TABLE ZSCOREDITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCREATED TIMESTAMP, \
        ZFLAG INTEGER, ZNAME VARCHAR, ZPRICE FLOAT, ZSCORE INTEGER, ZUNINDEXEDSCORE INTEGER );
        CREATE INDEX Z_ScoredItem_byScore ON ZSCOREDITEM (ZSCORE COLLATE BINARY ASC)
        """

    /// One row per execution: `Z_PK`, `Z_ENT`, `Z_OPT`, then the attributes in column order.
    static let insertSQL = """
        INSERT INTO ZSCOREDITEM (Z_PK, Z_ENT, Z_OPT, ZCREATED, ZFLAG, ZNAME, ZPRICE, ZSCORE, ZUNINDEXEDSCORE) \
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
}
