import Foundation
import GRDB

/// A `ZSCOREDITEM` row as a GRDB struct record, decoded by column name.
struct GRDBScoredItem: FetchableRecord, TableRecord, Sendable {
    static let databaseTableName = ScoredItemTable.tableName

    var id: Int64
    var created: Date
    var flag: Bool
    var name: String
    var price: Double
    var score: Int64
    var unindexedScore: Int64

    init(row: Row) {
        id = row["Z_PK"]
        created = Date(timeIntervalSinceReferenceDate: row["ZCREATED"])
        flag = row["ZFLAG"]
        name = row["ZNAME"]
        price = row["ZPRICE"]
        score = row["ZSCORE"]
        unindexedScore = row["ZUNINDEXEDSCORE"]
    }
}

/// A `ZSCOREDITEM` row as a GRDB `Record` subclass: the change-tracking peer of Core Data's
/// managed objects. It decodes its row as ``GRDBScoredItem`` does.
final class GRDBScoredItemRecord: Record {
    override class var databaseTableName: String { ScoredItemTable.tableName }

    /// The row's values.
    var values: GRDBScoredItem

    required init(row: Row) throws {
        values = GRDBScoredItem(row: row)
        try super.init(row: row)
    }

    /// The score, the attribute the workloads add up.
    var score: Int64 { values.score }
}

extension QueryInterfaceRequest {
    /// W3a/W4b's condition: `ZSCORE BETWEEN lower AND upper`, the indexed 1% of the rows.
    func byScore(count: Int) -> Self {
        filter(ScoredItemTable.scoreRange(count: count).contains(Column("ZSCORE")))
    }

    /// W3b/W4c's condition: the same range of the unindexed column.
    func byUnindexedScore(count: Int) -> Self {
        filter(ScoredItemTable.scoreRange(count: count).contains(Column("ZUNINDEXEDSCORE")))
    }

    /// W3c's condition, order and limit: names `LIKE 'cd%'`, the first 50 by `created`.
    func byNamePrefix() -> Self {
        filter(Column("ZNAME").like(ScoredItemTable.namePrefix + "%"))
            .order(Column("ZCREATED"))
            .limit(ScoredItemTable.prefixFetchLimit)
    }
}
