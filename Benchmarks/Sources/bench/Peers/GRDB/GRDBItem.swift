import GRDB

/// An `Item` row as a GRDB struct record, encoded and decoded by column name, as in GRDB's own
/// `InsertRecordStructTests` / `FetchRecordStructTests`.
struct GRDBItem: FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "ZITEM"

    var id: Int64
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int64

    /// Item number `index`: `Z_PK = index + 1`, every attribute `index`.
    init(index: Int) {
        let value = Int64(index)
        id = value + 1
        (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) = (value, value, value, value, value, value, value, value, value, value)
    }

    init(row: Row) {
        id = row["Z_PK"]
        i0 = row["ZI0"]
        i1 = row["ZI1"]
        i2 = row["ZI2"]
        i3 = row["ZI3"]
        i4 = row["ZI4"]
        i5 = row["ZI5"]
        i6 = row["ZI6"]
        i7 = row["ZI7"]
        i8 = row["ZI8"]
        i9 = row["ZI9"]
    }

    func encode(to container: inout PersistenceContainer) {
        container["Z_PK"] = id
        container["Z_ENT"] = 1
        container["Z_OPT"] = 1
        container["ZI0"] = i0
        container["ZI1"] = i1
        container["ZI2"] = i2
        container["ZI3"] = i3
        container["ZI4"] = i4
        container["ZI5"] = i5
        container["ZI6"] = i6
        container["ZI7"] = i7
        container["ZI8"] = i8
        container["ZI9"] = i9
    }

    /// The sum of the ten attributes.
    var sum: Int64 {
        i0 &+ i1 &+ i2 &+ i3 &+ i4 &+ i5 &+ i6 &+ i7 &+ i8 &+ i9
    }
}

/// An `Item` row as a GRDB `Record` subclass: the change-tracking peer of Core Data's managed
/// objects, as in GRDB's own `InsertRecordClassTests` / `FetchRecordClassTests`.
final class GRDBItemRecord: Record {
    override class var databaseTableName: String { "ZITEM" }

    var id: Int64
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int64

    /// Item number `index`: `Z_PK = index + 1`, every attribute `index`.
    init(index: Int) {
        let value = Int64(index)
        id = value + 1
        (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) = (value, value, value, value, value, value, value, value, value, value)
        super.init()
    }

    required init(row: Row) throws {
        id = row["Z_PK"]
        i0 = row["ZI0"]
        i1 = row["ZI1"]
        i2 = row["ZI2"]
        i3 = row["ZI3"]
        i4 = row["ZI4"]
        i5 = row["ZI5"]
        i6 = row["ZI6"]
        i7 = row["ZI7"]
        i8 = row["ZI8"]
        i9 = row["ZI9"]
        try super.init(row: row)
    }

    override func encode(to container: inout PersistenceContainer) throws {
        container["Z_PK"] = id
        container["Z_ENT"] = 1
        container["Z_OPT"] = 1
        container["ZI0"] = i0
        container["ZI1"] = i1
        container["ZI2"] = i2
        container["ZI3"] = i3
        container["ZI4"] = i4
        container["ZI5"] = i5
        container["ZI6"] = i6
        container["ZI7"] = i7
        container["ZI8"] = i8
        container["ZI9"] = i9
    }

    /// The sum of the ten attributes.
    var sum: Int64 {
        i0 &+ i1 &+ i2 &+ i3 &+ i4 &+ i5 &+ i6 &+ i7 &+ i8 &+ i9
    }
}
