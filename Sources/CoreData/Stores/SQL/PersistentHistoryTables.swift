import Foundation

/// Apple's persistent history tables in a relational store (store-format §2.11): `ATRANSACTION`,
/// `ACHANGE` and `ATRANSACTIONSTRING`, numbered 16001 to 16003 in `Z_PRIMARYKEY`, with their
/// rows' `Z_OPT` left NULL as Apple's are; in another database than SQLite, in its dialect.
enum PersistentHistoryTables {
    static let changeNumber: Int64 = 16_001
    static let transactionNumber: Int64 = 16_002
    static let stringNumber: Int64 = 16_003

    /// The change types of `ACHANGE.ZCHANGETYPE`.
    static let insertType: Int64 = 0
    static let updateType: Int64 = 1
    static let deleteType: Int64 = 2

    /// The names `Z_PRIMARYKEY` gives the tables' entities.
    private static let entityNames: [(number: Int64, name: String)] = [
        (changeNumber, "CHANGE"), (transactionNumber, "TRANSACTION"), (stringNumber, "TRANSACTIONSTRING"),
    ]

    /// The version hashes of Apple's history entities, which a store that records history keeps
    /// in its metadata (under `_NSStoreAncillaryModelVersionHashesMetadataKey`, then
    /// `NSPersistentHistoryTrackingKey`), as an Apple-written store (framework 977, no tombstone
    /// columns) holds them. Whether `CHANGE`'s hash differs with tombstone columns is not known.
    static let entityVersionHashes: [String: Data] = [
        "CHANGE": Data([
            0xf0, 0x6b, 0x17, 0xe7, 0xb1, 0x77, 0xe4, 0x7c, 0xe2, 0x02, 0x7e, 0xd6, 0xf7, 0x91, 0x60, 0xca,
            0xce, 0x93, 0xb4, 0x1e, 0x37, 0x9c, 0x81, 0x65, 0x8e, 0xec, 0xaf, 0x3e, 0x94, 0xd5, 0xc7, 0x03,
        ]),
        "TRANSACTION": Data([
            0x25, 0x70, 0xb0, 0xb7, 0x21, 0xae, 0x42, 0xce, 0x17, 0xf5, 0xd2, 0xb5, 0x1e, 0xed, 0x64, 0xe6,
            0xba, 0xa5, 0xa4, 0x41, 0x97, 0x32, 0x92, 0x6d, 0xab, 0xeb, 0x5b, 0x6d, 0x92, 0x7c, 0xf8, 0x4c,
        ]),
        "TRANSACTIONSTRING": Data([
            0x96, 0x81, 0x5c, 0xbd, 0xf7, 0x0c, 0x83, 0xe7, 0xae, 0x46, 0xb2, 0x8f, 0x82, 0x87, 0x49, 0x80,
            0x81, 0xfc, 0x5f, 0x1f, 0x05, 0xbf, 0xfb, 0xbb, 0xdc, 0xf7, 0xd9, 0x9b, 0xc3, 0x3b, 0xf4, 0xc8,
        ]),
    ]

    /// The columns of the interned strings of `ATRANSACTION`, in the order the writer binds them.
    static let stringColumns = ["ZAUTHORTS", "ZBUNDLEIDTS", "ZCONTEXTNAMETS", "ZPROCESSIDTS"]

    /// Whether a store's database has the tables.
    static func exist(in connection: any SQLDatabase, dialect: SQLDialect) throws -> Bool {
        try connection.scalar(dialect.tableExistenceQuery("ATRANSACTION")) ?? 0 != 0
    }

    /// Creates the tables, indexes and `Z_PRIMARYKEY` rows, with as many tombstone columns as
    /// `tombstoneColumns`, or adds the tombstone columns an existing `ACHANGE` lacks.
    static func create(in connection: any SQLDatabase, dialect: SQLDialect, tombstoneColumns: Int) throws {
        if try !exist(in: connection, dialect: dialect) {
            let tables = [
                SQLSchema.Table(name: "ACHANGE", columns: [
                    ("Z_PK", "INTEGER PRIMARY KEY"), ("Z_ENT", "INTEGER"), ("Z_OPT", "INTEGER"), ("ZCHANGETYPE", "INTEGER"), ("ZENTITY", "INTEGER"),
                    ("ZENTITYPK", "INTEGER"), ("ZTRANSACTIONID", "INTEGER"), ("ZCOLUMNS", "BLOB"),
                ]),
                SQLSchema.Table(name: "ATRANSACTION", columns: [
                    ("Z_PK", "INTEGER PRIMARY KEY"), ("Z_ENT", "INTEGER"), ("Z_OPT", "INTEGER"), ("ZAUTHORTS", "INTEGER"), ("ZBUNDLEIDTS", "INTEGER"),
                    ("ZCONTEXTNAMETS", "INTEGER"), ("ZPROCESSIDTS", "INTEGER"), ("ZTIMESTAMP", "FLOAT"), ("ZAUTHOR", "VARCHAR"), ("ZBUNDLEID", "VARCHAR"),
                    ("ZCONTEXTNAME", "VARCHAR"), ("ZPROCESSID", "VARCHAR"), ("ZQUERYGEN", "BLOB"),
                ]),
                SQLSchema.Table(name: "ATRANSACTIONSTRING", columns: [("Z_PK", "INTEGER PRIMARY KEY"), ("Z_ENT", "INTEGER"), ("Z_OPT", "INTEGER"), ("ZNAME", "VARCHAR")]),
            ]
            let indexes = [
                "CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID)",
                "CREATE INDEX ATRANSACTION_ZAUTHORTS_INDEX ON ATRANSACTION (ZAUTHORTS)",
                "CREATE INDEX ATRANSACTION_ZBUNDLEIDTS_INDEX ON ATRANSACTION (ZBUNDLEIDTS)",
                "CREATE INDEX ATRANSACTION_ZCONTEXTNAMETS_INDEX ON ATRANSACTION (ZCONTEXTNAMETS)",
                "CREATE INDEX ATRANSACTION_ZPROCESSIDTS_INDEX ON ATRANSACTION (ZPROCESSIDTS)",
                "CREATE INDEX Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION (ZAUTHOR COLLATE BINARY ASC)",
                "CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP COLLATE BINARY ASC)",
                "CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC)",
            ]
            for statement in tables.map({ SQLSchema.createStatement(for: $0, in: dialect) }) + indexes.map(dialect.indexDeclaration) {
                try connection.execute(statement)
            }
            for (number, name) in entityNames {
                try connection.execute("DELETE FROM Z_PRIMARYKEY WHERE Z_ENT = \(number)")
                try connection.execute("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (\(number), '\(name)', 0, 0)")
            }
        }
        let existing = try tombstoneColumnCount(in: connection, dialect: dialect)
        for index in existing..<max(existing, tombstoneColumns) {
            try connection.execute("ALTER TABLE ACHANGE ADD COLUMN ZTOMBSTONE\(index) \(dialect.declaration("BLOB"))")
        }
    }

    /// The number of `ZTOMBSTONE<n>` columns of `ACHANGE`.
    static func tombstoneColumnCount(in connection: any SQLDatabase, dialect: SQLDialect) throws -> Int {
        Int(try connection.scalar(dialect.columnCountQuery(table: "ACHANGE", namePrefix: "ZTOMBSTONE")) ?? 0)
    }
}
