import GRDB

/// A `ZPARENT` row as a GRDB struct record, with W5's `hasMany` association to its children
/// through the foreign key `ZCHILD.ZPARENT`.
struct GRDBParent: FetchableRecord, TableRecord, Sendable {
    static let databaseTableName = ParentChildTable.parentTableName

    /// The parent's children: `ZCHILD` rows whose `ZPARENT` is this row's `Z_PK`.
    static let children = hasMany(
        GRDBChild.self, key: ParentChildTable.childrenKey, using: ForeignKey([ParentChildTable.foreignKeyColumn]))

    var id: Int64
    var rank: Int64

    init(row: Row) {
        id = row["Z_PK"]
        rank = row["ZRANK"]
    }
}

/// A `ZCHILD` row as a GRDB struct record, decoded by column name.
struct GRDBChild: FetchableRecord, TableRecord, Sendable {
    static let databaseTableName = ParentChildTable.childTableName

    var id: Int64
    var parent: Int64
    var serial: Int64
    var weight: Int64

    init(row: Row) {
        id = row["Z_PK"]
        parent = row["ZPARENT"]
        serial = row["ZSERIAL"]
        weight = row["ZWEIGHT"]
    }
}

/// A parent with its children, decoded from a `GRDBParent.including(all: GRDBParent.children)`
/// row and the rows GRDB prefetched for it.
struct GRDBParentWithChildren: FetchableRecord, Sendable {
    var parent: GRDBParent
    var children: [GRDBChild]

    init(row: Row) {
        parent = GRDBParent(row: row)
        children = (row.prefetchedRows[ParentChildTable.childrenKey] ?? []).map(GRDBChild.init(row:))
    }
}
