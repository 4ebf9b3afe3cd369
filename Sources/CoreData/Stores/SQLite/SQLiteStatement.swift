import CSQLite

/// A prepared SQLite statement: binding parameters, stepping through rows, reading columns.
///
/// Values are always bound as parameters, never spliced into SQL.
final class SQLiteStatement: SQLStatement {
    private var handle: OpaquePointer?
    private unowned let connection: SQLiteConnection
    let sql: String
    /// The result code of the first bind that failed since the last reset.
    private var bindFailure: Int32?

    init(_ handle: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    func finalize() {
        sqlite3_finalize(handle)
        handle = nil
    }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        bindFailure = nil
    }

    /// Advances to the next row; false when there are no more rows.
    @discardableResult
    func step() throws -> Bool {
        if let bindFailure {
            throw connection.error(code: bindFailure, message: String(cString: sqlite3_errstr(bindFailure)), sql: sql)
        }
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw connection.error(code: code, sql: sql)
        }
    }

    /// Steps to the first row and reads it with `read`, then resets the statement: a statement
    /// left on a row keeps its read transaction open, which pins the connection to an old snapshot
    /// and makes its next write transaction fail with `SQLITE_BUSY_SNAPSHOT`.
    func readFirstRow<Value>(_ read: (SQLiteStatement) throws -> Value) throws -> Value? {
        defer { reset() }
        guard try step() else { return nil }
        return try read(self)
    }

    /// Runs a statement that returns no rows.
    func run() throws {
        while try step() {}
    }

    // MARK: Binding (1-based indices)

    // A failed bind (a value longer than SQLite accepts) is remembered and reported by the next
    // `step()`, so binding stays a plain call at every site and no failure goes unnoticed.

    func bind(_ value: Int64, at index: Int32) {
        check(sqlite3_bind_int64(handle, index, value))
    }

    func bind(_ value: Double, at index: Int32) {
        check(sqlite3_bind_double(handle, index, value))
    }

    func bind(_ value: String, at index: Int32) {
        guard !value.isEmpty else {
            check(sqlite3_bind_text(handle, index, "", 0, csqlite_transient))
            return
        }
        var value = value
        value.withUTF8 { bytes in
            // An explicit length keeps strings with NUL characters whole.
            bytes.withMemoryRebound(to: CChar.self) { text in
                check(sqlite3_bind_text64(handle, index, text.baseAddress, sqlite3_uint64(text.count), csqlite_transient, UInt8(SQLITE_UTF8)))
            }
        }
    }

    func bind(_ value: Data, at index: Int32) {
        value.withUnsafeBytes { bytes in
            check(sqlite3_bind_blob64(handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), sqlite3_uint64(bytes.count), csqlite_transient))
        }
    }

    func bindNull(at index: Int32) {
        check(sqlite3_bind_null(handle, index))
    }

    private func check(_ code: Int32) {
        if code != SQLITE_OK && bindFailure == nil { bindFailure = code }
    }

    /// Binds a value already in SQL form (`SQLValue`).
    func bind(_ value: SQLValue, at index: Int32) {
        switch value {
        case .null: bindNull(at: index)
        case .integer(let integer): bind(integer, at: index)
        case .real(let real): bind(real, at: index)
        case .text(let text): bind(text, at: index)
        case .blob(let blob): bind(blob, at: index)
        }
    }

    // MARK: Reading (0-based indices)

    /// The number of columns each row has.
    var columnCount: Int32 {
        sqlite3_column_count(handle)
    }

    func isNull(at index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    func int64(at index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    func double(at index: Int32) -> Double {
        sqlite3_column_double(handle, index)
    }

    func string(at index: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    func data(at index: Int32) -> Data? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// The column's value in SQL form.
    func value(at index: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(int64(at: index))
        case SQLITE_FLOAT: return .real(double(at: index))
        case SQLITE_TEXT: return string(at: index).map(SQLValue.text) ?? .null
        case SQLITE_BLOB: return .blob(data(at: index) ?? Data())
        default: return .null
        }
    }
}

