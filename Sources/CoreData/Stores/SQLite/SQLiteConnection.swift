import CSQLite
import Synchronization

/// One connection to a SQLite database through the C API, with a cache of prepared statements.
///
/// Not thread-safe: the store that owns it uses it under its coordinator's lock.
final class SQLiteConnection: SQLDatabase {
    private(set) var handle: OpaquePointer?
    let path: String
    var location: URL { URL(fileURLWithPath: path) }
    var dialect: SQLDialect { .sqlite }
    private var statements: [String: SQLiteStatement] = [:]
    /// Called when the statement cache starts over, so that holders of prepared statements drop them.
    var onCacheCleared: (() -> Void)?
    /// Called with the SQL of every statement about to run, for tests that count queries.
    var statementObserver: ((String) -> Void)?

    /// Statements kept prepared at most; beyond it the cache starts over (IN lists of varying
    /// length and UPDATEs of varying columns would otherwise grow it without bound).
    private static let statementCacheLimit = 256

    /// Opens a database file.
    ///
    /// - Parameters:
    ///   - path: The file path.
    ///   - readOnly: Opens without write access and never creates the file.
    ///   - create: Creates the file when it does not exist.
    ///   - busyTimeout: How long, in seconds, a statement waits for another connection's lock
    ///     before it fails with `SQLITE_BUSY`.
    init(path: String, readOnly: Bool, create: Bool, busyTimeout: TimeInterval = 5) throws {
        self.path = path
        var flags = SQLITE_OPEN_NOMUTEX
        flags |= readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, flags, Self.vfsName(for: path))
        handle = db
        guard code == SQLITE_OK else {
            let error = self.error(code: code, sql: nil)
            close()
            throw error
        }
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, Int32(clamping: Int((busyTimeout * 1000).rounded())))
        logStatementsAtSQLDebugLevel()
    }

    deinit {
        close()
    }

    /// Test hook, internal: the name of a registered SQLite VFS that connections to files under a
    /// directory open through, by directory path; other files use SQLite's default VFS. The I/O
    /// error tests route their scratch directories through a VFS that fails chosen file operations.
    static let vfsByDirectory = Mutex<[String: String]>([:])

    private static func vfsName(for path: String) -> String? {
        vfsByDirectory.withLock { routes in
            routes.first { path.hasPrefix($0.key + "/") }?.value
        }
    }

    /// Makes closing the connection leave the write-ahead log for the next connection instead of
    /// checkpointing it, which writes and syncs the database file.
    func keepWriteAheadLogOnClose() {
        csqlite_keep_wal_on_close(handle)
    }

    /// Finalizes every statement and closes the connection.
    func close() {
        statements.values.forEach { $0.finalize() }
        statements = [:]
        if let handle {
            sqlite3_close_v2(handle)
            self.handle = nil
        }
    }

    /// Runs SQL that returns no rows (one or more statements separated by semicolons).
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(message)
            throw error(code: code, message: text, sql: sql)
        }
    }

    /// A prepared statement for SQL, reused from the cache and reset for a new run.
    func statement(_ sql: String) throws -> SQLiteStatement {
        statementObserver?(sql)
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        logQueryPlanAtSQLDebugLevel(of: sql)
        var raw: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &raw, nil)
        guard code == SQLITE_OK, let raw else {
            throw error(code: code, sql: sql)
        }
        let statement = SQLiteStatement(raw, connection: self, sql: sql)
        if statements.count >= Self.statementCacheLimit {
            statements.values.forEach { $0.finalize() }
            statements = [:]
            onCacheCleared?()
        }
        statements[sql] = statement
        return statement
    }

    /// Runs `body` in a transaction, committing when it returns and rolling back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        defer { try? execute("COMMIT") }
        return try body()
    }

    /// The rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int {
        Int(sqlite3_changes(handle))
    }

    /// Whether a table or index with a name exists; of a `type` (`table`, `index`) when given.
    func schemaObjectExists(_ name: String, type: String? = nil) throws -> Bool {
        let statement = try statement("SELECT 1 FROM sqlite_master WHERE name = ?1 AND type = coalesce(?2, type)")
        statement.bind(name, at: 1)
        if let type { statement.bind(type, at: 2) } else { statement.bindNull(at: 2) }
        return try statement.readFirstRow { _ in true } ?? false
    }

    /// The names of a table's columns.
    func columns(of table: String) throws -> Set<String> {
        let statement = try statement("SELECT name FROM pragma_table_info(?)")
        statement.bind(table, at: 1)
        var names = Set<String>()
        while try statement.step() {
            if let name = statement.string(at: 0) { names.insert(name) }
        }
        return names
    }

    var lastErrorMessage: String {
        handle.map { String(cString: sqlite3_errmsg($0)) } ?? "no database connection"
    }
}
