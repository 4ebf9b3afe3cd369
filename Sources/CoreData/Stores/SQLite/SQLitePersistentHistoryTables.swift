/// Apple's persistent history tables in a SQLite store (store-format §2.11): `ATRANSACTION`,
/// `ACHANGE` and `ATRANSACTIONSTRING`, numbered 16001 to 16003 in `Z_PRIMARYKEY`, with their
/// rows' `Z_OPT` left NULL as Apple's are.
enum SQLitePersistentHistoryTables {
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

    /// The columns of the interned strings of `ATRANSACTION`, in the order the writer binds them.
    static let stringColumns = ["ZAUTHORTS", "ZBUNDLEIDTS", "ZCONTEXTNAMETS", "ZPROCESSIDTS"]

    /// Whether a store file has the tables.
    static func exist(in connection: SQLiteConnection) throws -> Bool {
        try connection.schemaObjectExists("ATRANSACTION", type: "table")
    }

    /// Creates the tables, indexes and `Z_PRIMARYKEY` rows, with as many tombstone columns as
    /// `tombstoneColumns`, or adds the tombstone columns an existing `ACHANGE` lacks.
    static func create(in connection: SQLiteConnection, tombstoneColumns: Int) throws {
        if try !exist(in: connection) {
            try connection.execute("""
                CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB );
                CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB );
                CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
                CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID);
                CREATE INDEX ATRANSACTION_ZAUTHORTS_INDEX ON ATRANSACTION (ZAUTHORTS);
                CREATE INDEX ATRANSACTION_ZBUNDLEIDTS_INDEX ON ATRANSACTION (ZBUNDLEIDTS);
                CREATE INDEX ATRANSACTION_ZCONTEXTNAMETS_INDEX ON ATRANSACTION (ZCONTEXTNAMETS);
                CREATE INDEX ATRANSACTION_ZPROCESSIDTS_INDEX ON ATRANSACTION (ZPROCESSIDTS);
                CREATE INDEX Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION (ZAUTHOR COLLATE BINARY ASC);
                CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP COLLATE BINARY ASC);
                CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC)
                """)
            for (number, name) in entityNames {
                try connection.execute("INSERT OR REPLACE INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (\(number), '\(name)', 0, 0)")
            }
        }
        let existing = try tombstoneColumnCount(in: connection)
        for index in existing..<max(existing, tombstoneColumns) {
            try connection.execute("ALTER TABLE ACHANGE ADD COLUMN ZTOMBSTONE\(index) BLOB")
        }
    }

    /// The number of `ZTOMBSTONE<n>` columns of `ACHANGE`.
    static func tombstoneColumnCount(in connection: SQLiteConnection) throws -> Int {
        let statement = try connection.statement("SELECT name FROM pragma_table_info('ACHANGE') WHERE name LIKE 'ZTOMBSTONE%'")
        var count = 0
        while try statement.step() { count += 1 }
        return count
    }

    /// The slots of the attributes whose values a delete keeps in its tombstone, in the order of
    /// the tombstone columns: by name (store-format §2.11).
    static func tombstoneSlots(of entity: NSEntityDescription) -> [Int] {
        let layout = entity.layout
        return layout.preservedAttributeSlots.sorted { layout.slots[$0].name < layout.slots[$1].name }
    }
}
