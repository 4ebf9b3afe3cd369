/// What differs between the SQL of the databases the relational stores speak: the SQL compiler,
/// the schema and the queries are one implementation, and each database's spelling of the few
/// things they disagree on comes from its dialect.
package struct SQLDialect: Sendable {
    /// The databases there are dialects of.
    enum Database: Sendable {
        case sqlite, postgreSQL
    }

    let database: Database
    /// The store's name in error messages ("a fetch from a SQLite store").
    package let storeName: String
    /// The prefix that makes a parenthesized group of conditions a single value to the planner
    /// (see `SQLPredicateCompiler.grouped`), and that keeps a column's index unused (`noindex:`).
    let opaqueValuePrefix: String
    /// Whether the database has the collations of `SortComparison.collationName`, which order as
    /// sorting in memory does.
    let hasComparisonCollations: Bool
    /// What follows `ASC` and `DESC` so that NULL sorts before every value in ascending order, as
    /// in Apple's store.
    let nullsFirst: String
    let nullsLast: String
    /// A `LIMIT` that does not limit, for an `OFFSET` alone.
    let noLimit: String
    /// The type the amount of a bit shift must have, when it cannot be any integer.
    let shiftAmountType: String?
    /// The SQL type of the columns holding each kind of value SQLite's layout declares.
    let columnTypes: [String: String]
    /// The store's indexes as the database lists them: name, table and definition, names in
    /// upper case as the layout writes them.
    let indexCatalogQuery: String
    /// Whether the database keeps an index's definition as it was written (so that a changed
    /// index is told by its definition), or rewrites it (so that indexes are told by name).
    let keepsIndexDefinitionsAsWritten: Bool

    /// The declaration of a column SQLite's layout declares as `sqliteDeclaration`
    /// (`INTEGER PRIMARY KEY`, `VARCHAR`, …): its type in this database, then the rest.
    func declaration(_ sqliteDeclaration: String) -> String {
        let type = sqliteDeclaration.prefix { $0 != " " }
        return (columnTypes[String(type)] ?? String(type)) + sqliteDeclaration.dropFirst(type.count)
    }

    /// An `INSERT` of the rows of `select` (one row of parameters by default) that skips a row
    /// whose primary key the table holds already.
    func insertIgnoringDuplicates(into table: String, columns: [String], select: String? = nil) -> String {
        let rows = select ?? "VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
        let insert = "INTO \(table) (\(columns.joined(separator: ", "))) \(rows)"
        switch database {
        case .sqlite: return "INSERT OR IGNORE \(insert)"
        case .postgreSQL: return "INSERT \(insert) ON CONFLICT DO NOTHING"
        }
    }

    /// The literal of a real infinity.
    func infinityLiteral(negative: Bool) -> String {
        switch database {
        case .sqlite: negative ? "-1e999" : "1e999"
        case .postgreSQL: negative ? "'-Infinity'::float8" : "'Infinity'::float8"
        }
    }

    /// The literal of bytes.
    func blobLiteral(_ data: Data) -> String {
        let hex = data.map { String(format: "%02X", $0) }.joined()
        switch database {
        case .sqlite: return "X'\(hex)'"
        case .postgreSQL: return "'\\x\(hex)'::bytea"
        }
    }

    /// A number truncated toward zero, as SQLite's `CAST(… AS INTEGER)` makes it.
    func integerConversion(of expression: String) -> String {
        switch database {
        case .sqlite: "CAST(\(expression) AS INTEGER)"
        case .postgreSQL: "CAST(trunc(\(expression)) AS \(declaration("INTEGER")))"
        }
    }

    /// Writes the metadata row (`Z_VERSION` 1) from its UUID and property list, replacing the
    /// one there; two writers at once leave one of their rows, never an error.
    var upsertingMetadataRow: String {
        switch database {
        case .sqlite: "INSERT OR REPLACE INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)"
        case .postgreSQL: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?) ON CONFLICT (Z_VERSION) DO UPDATE SET Z_UUID = EXCLUDED.Z_UUID, Z_PLIST = EXCLUDED.Z_PLIST"
        }
    }

    /// The statement a save that records persistent history runs before numbering its
    /// transaction, holding a lock until the commit so that transactions are numbered in the
    /// order they commit; nil where one writer at a time is the database's own rule (SQLite).
    var historyLock: String? {
        switch database {
        case .sqlite: nil
        case .postgreSQL: "SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.history'))"
        }
    }

    /// A sort key of a grouped query that is not grouped by. SQLite sorts the groups by the
    /// value of one of their rows (a bare column); PostgreSQL refuses a column that is not
    /// grouped by, and sorts here by the group's least value ascending, greatest descending.
    func groupedSortKey(_ column: String, ascending: Bool) -> String {
        switch database {
        case .sqlite: column
        case .postgreSQL: ascending ? "MIN(\(column))" : "MAX(\(column))"
        }
    }

    /// The qualified name of a connection's temporary table, which only that connection sees.
    func temporaryTable(_ name: String) -> String {
        switch database {
        case .sqlite: "temp.\(name)"
        case .postgreSQL: "pg_temp.\(name)"
        }
    }

    /// A query whose integer is 1 when the store's database has a table of that name, 0 when not.
    func tableExistenceQuery(_ table: String) -> String {
        switch database {
        case .sqlite: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '\(table)'"
        case .postgreSQL: "SELECT CASE WHEN to_regclass('\(table.lowercased())') IS NULL THEN 0 ELSE 1 END"
        }
    }

    /// A query counting the columns of a table whose names start with a prefix.
    func columnCountQuery(table: String, namePrefix: String) -> String {
        switch database {
        case .sqlite: "SELECT COUNT(*) FROM pragma_table_info('\(table)') WHERE name LIKE '\(namePrefix)%'"
        case .postgreSQL: "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = '\(table.lowercased())' AND column_name LIKE '\(namePrefix.lowercased())%'"
        }
    }

    /// An index of SQLite's layout as this database declares it: SQLite's `COLLATE BINARY` only
    /// where SQLite has it, as other databases refuse a collation on a column that is not text
    /// (and their text columns order by bytes already, see `columnTypes`).
    func indexDeclaration(_ sqliteIndex: String) -> String {
        switch database {
        case .sqlite: sqliteIndex
        case .postgreSQL: sqliteIndex.replacingOccurrences(of: " COLLATE BINARY", with: "")
        }
    }

    /// SQLite, the database of Apple's store, whose layout the others take over.
    package static let sqlite = SQLDialect(
        database: .sqlite, storeName: "SQLite", opaqueValuePrefix: "+", hasComparisonCollations: true,
        nullsFirst: "", nullsLast: "", noLimit: "-1", shiftAmountType: nil, columnTypes: [:],
        indexCatalogQuery: "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL",
        keepsIndexDefinitionsAsWritten: true
    )

    /// PostgreSQL, and the databases that speak its protocol. Columns hold what SQLite's do:
    /// integers as 64-bit integers (SQLite's INTEGER), dates and decimals as doubles (SQLite's
    /// REAL, as Apple's store writes them), strings as text that compares and sorts by its bytes
    /// (`COLLATE "C"`, whatever the database's own collation), and data as bytes.
    package static let postgreSQL = SQLDialect(
        database: .postgreSQL, storeName: "PostgreSQL", opaqueValuePrefix: "", hasComparisonCollations: false,
        nullsFirst: " NULLS FIRST", nullsLast: " NULLS LAST", noLimit: "ALL", shiftAmountType: "INTEGER",
        columnTypes: [
            "INTEGER": "BIGINT", "FLOAT": "DOUBLE PRECISION", "DECIMAL": "DOUBLE PRECISION",
            "TIMESTAMP": "DOUBLE PRECISION", "REAL": "DOUBLE PRECISION", "VARCHAR": "TEXT COLLATE \"C\"", "BLOB": "BYTEA",
        ],
        // Primary keys' indexes are the tables' own, not the layout's.
        indexCatalogQuery: """
            SELECT upper(c.relname), upper(t.relname), pg_get_indexdef(c.oid) FROM pg_index i
            JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
            WHERE t.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema()) AND NOT i.indisprimary
            """,
        keepsIndexDefinitionsAsWritten: false
    )
}
