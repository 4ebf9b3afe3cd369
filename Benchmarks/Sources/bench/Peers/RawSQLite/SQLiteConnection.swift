import BenchSQLite

/// A minimal owner of a `sqlite3` connection for the raw-SQLite peers and for fixture checks.
///
/// Hot loops call the C API directly on ``handle`` and ``SQLiteStatement/handle``; this type only
/// spares them the error handling and the cleanup.
final class SQLiteConnection {
    /// The underlying `sqlite3 *`.
    let handle: OpaquePointer

    /// The version of the SQLite library linked in, e.g. `"3.40.1"`.
    static var libraryVersion: String {
        String(cString: sqlite3_libversion())
    }

    /// Opens (creating if needed) the database at `path`.
    init(path: String) throws {
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(path, &connection, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard code == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(connection)
            throw BenchmarkError.sqlite(code: code, message: message, sql: nil)
        }
        handle = connection
    }

    /// Opens the database at `path` and applies the run's journal mode and synchronous level.
    convenience init(path: String, settings: StoreSettings) throws {
        try self.init(path: path)
        for statement in settings.pragmaStatements {
            try execute(statement)
        }
    }

    /// Whether ``close()`` already ran.
    private var isClosed = false

    deinit {
        close()
    }

    /// Closes the connection (a zombie until its last statement is finalized, as
    /// `sqlite3_close_v2` does). Closing twice is harmless.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements, ignoring their rows.
    func execute(_ sql: String) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), sql: sql)
    }

    /// Compiles one statement.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil), sql: sql)
        guard let statement else {
            throw BenchmarkError.sqlite(code: SQLITE_MISUSE, message: "empty statement", sql: sql)
        }
        return SQLiteStatement(handle: statement, connection: self)
    }

    /// The integers of the first row of a query.
    func integers(_ sql: String) throws -> [Int64] {
        let statement = try prepare(sql)
        guard try statement.step() else { return [] }
        return (0..<sqlite3_column_count(statement.handle)).map { sqlite3_column_int64(statement.handle, $0) }
    }

    /// Throws the connection's current error unless `code` is `SQLITE_OK`, `SQLITE_ROW` or
    /// `SQLITE_DONE`.
    func check(_ code: Int32, sql: String? = nil) throws {
        guard code != SQLITE_OK, code != SQLITE_ROW, code != SQLITE_DONE else { return }
        throw BenchmarkError.sqlite(code: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}

/// A compiled statement, finalized when released.
final class SQLiteStatement {
    /// The underlying `sqlite3_stmt *`.
    let handle: OpaquePointer
    /// Keeps the connection open while the statement lives.
    let connection: SQLiteConnection

    init(handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Advances to the next row. Returns `true` on a row, `false` when done.
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        try connection.check(code)
        return code == SQLITE_ROW
    }
}
