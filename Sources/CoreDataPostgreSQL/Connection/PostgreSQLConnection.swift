import CoreData
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// A connection to a PostgreSQL server, used synchronously, as Core Data's API is.
///
/// PostgresNIO answers on its event loops; a call here sends its query and blocks the calling
/// thread (a context's queue, the main thread, a task's thread) until the answer arrives, which
/// never blocks an event loop: a call made on one is refused with an error instead, as waiting
/// there would wait for itself.
///
/// A connection the server or the network lost is replaced by a new one: a statement outside a
/// transaction, or the first of a transaction, runs again on it, once; a later statement of a
/// transaction fails, the server having rolled the transaction back, and the next one runs on a
/// new connection.
// Used by one store under its coordinator's lock, like every store's connection.
final class PostgreSQLConnection: SQLDatabase, @unchecked Sendable {
    let address: PostgreSQLServerAddress
    private var connection: PostgresConnection?
    private var statements: [String: PostgreSQLStatement] = [:]
    private static let logger = Logger(label: "CoreDataPostgreSQL.connection")
    private static let nextID = Atomic(0)

    var location: URL { address.url }
    var dialect: SQLDialect { .postgreSQL }

    /// The number of rows the last statement inserted, changed or deleted.
    private(set) var changes = 0

    /// Whether a transaction `begin()` opened is open.
    private(set) var isInTransaction = false
    /// Whether the open transaction has run nothing yet but its `BEGIN`, so that it can start
    /// again on a new connection when the connection turns out to be lost.
    private var transactionIsEmpty = false
    /// The statement that opened the transaction, which opens it again on a new connection.
    private var beginStatement = "BEGIN"

    /// Statements sent without waiting for their answers (`pipeline(_:)`), which the next
    /// statement waits for first: the server runs a connection's statements in order, so a
    /// `BEGIN` or a notification costs no round trip of its own.
    private var pipelined: [EventLoopFuture<PostgresQueryResult>] = []

    /// Connects to the server, in the address's schema.
    init(address: PostgreSQLServerAddress) throws {
        self.address = address
        try connect()
    }

    deinit {
        try? connection?.close().wait()
    }

    func close() {
        statements = [:]
        discardConnection()
    }

    /// Closes the connection, lost or not, and forgets it: PostgresNIO's connections must be
    /// closed before they go.
    private func discardConnection() {
        let lost = connection
        connection = nil
        pipelined = []
        _ = try? lost?.close().wait()
    }

    /// The statement for `sql`, kept for the next call with the same SQL (numbering its
    /// parameters once), with no rows or values left from an earlier use.
    func statement(_ sql: String) throws -> PostgreSQLStatement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        // Statements of many lengths (inserts of many rows, `IN` lists) are not worth keeping.
        if statements.count >= Self.statementCacheLimit { statements = [:] }
        let statement = PostgreSQLStatement(sql: sql, connection: self)
        statements[sql] = statement
        return statement
    }

    private static let statementCacheLimit = 256

    /// Runs SQL without parameters; several statements separated by semicolons run one after
    /// the other (the extended protocol takes one statement at a time).
    func execute(_ sql: String) throws {
        guard sql.contains(";") else {
            try run(PostgresQuery(unsafeSQL: sql))
            return
        }
        for statement in Self.statements(in: sql) {
            try run(PostgresQuery(unsafeSQL: statement))
        }
    }

    /// The statements of a script: split at semicolons outside quotes and `$$` bodies.
    static func statements(in script: String) -> [String] {
        var statements: [String] = []
        var current = ""
        var quote: Character?
        var inBody = false
        var previous: Character?
        for character in script {
            if character == "$", previous == "$", quote == nil {
                inBody.toggle()
            } else if !inBody, character == "'" || character == "\"" {
                quote = quote == character ? nil : (quote ?? character)
            }
            if character == ";", quote == nil, !inBody {
                statements.append(current)
                current = ""
            } else {
                current.append(character)
            }
            previous = character
        }
        statements.append(current)
        return statements.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    /// Runs `body` in a transaction, committing when it returns and rolling back when it throws.
    func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try begin()
        do {
            let result = try body()
            try commit()
            return result
        } catch {
            rollback()
            throw error
        }
    }

    /// Inside an open transaction (a query generation's, or a save's holding rows locked), `body`
    /// runs in it, which sees one snapshot already.
    func readTransaction<Result>(_ body: () throws -> Result) throws -> Result {
        guard !isInTransaction else { return try body() }
        try beginReadOnly()
        defer { rollback() }
        return try body()
    }

    func begin() throws {
        try begin(with: "BEGIN")
    }

    /// Opens a read-only transaction that sees one snapshot of the data, taken by its first
    /// statement.
    func beginReadOnly() throws {
        try begin(with: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
    }

    private func begin(with statement: String) throws {
        try pipeline(statement)
        beginStatement = statement
        isInTransaction = true
        transactionIsEmpty = true
    }

    /// Sends one statement without parameters, whose answer the next statement waits for.
    func pipeline(_ sql: String) throws {
        pipelined.append(try openConnection().query(PostgresQuery(unsafeSQL: sql), logger: Self.logger))
    }

    func commit() throws {
        defer { isInTransaction = false }
        try execute("COMMIT")
    }

    /// Rolls the open transaction back; a transaction on a lost connection is gone already.
    func rollback() {
        guard isInTransaction else { return }
        isInTransaction = false
        if let connection, !connection.isClosed { try? run(PostgresQuery(unsafeSQL: "ROLLBACK")) }
    }

    /// Sends a query and waits for its end, dropping any rows.
    func run(_ query: PostgresQuery) throws {
        var stream: PostgreSQLRowStream?
        while try nextRow(of: &stream, query: query) != nil {}
    }

    /// The next row of a query, sending it first when `stream` is nil; nil after the last row,
    /// when `changes` counts the rows the query changed and `stream` is nil again.
    ///
    /// A query whose connection is lost before it returns a row is sent again on a new
    /// connection, once, when it runs outside a transaction or first in one.
    func nextRow(of stream: inout PostgreSQLRowStream?, query: @autoclosure () -> PostgresQuery) throws -> PostgresRow? {
        do {
            return try readOrSend(&stream, query: query)
        } catch let lost as PostgreSQLConnectionLost {
            Self.logger.info("The connection to the PostgreSQL server was lost; sending again on a new one.", metadata: ["reason": "\(lost.reason)"])
            do {
                return try readOrSend(&stream, query: query)
            } catch let again as PostgreSQLConnectionLost {
                throw PostgreSQLErrors.make(NSPersistentStoreOperationError, "The connection to the PostgreSQL server was lost (\(again.reason)).", location: location)
            }
        }
    }

    /// Waits for the end of a query whose rows are no longer wanted, and sets `changes`.
    func finish(_ stream: PostgreSQLRowStream) throws {
        do {
            changes = try stream.finish().rows ?? 0
            transactionIsEmpty = false
        } catch {
            throw failure(error, of: stream, canRunAgain: false)
        }
        if CoreDataLog.sqlDebugLevel > 0 {
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - stream.sentAt) / 1e9
            CoreDataLog.sql.debug("annotation: sql execution time: \(String(format: "%.6f", seconds))s")
        }
    }

    private func readOrSend(_ stream: inout PostgreSQLRowStream?, query: () -> PostgresQuery) throws -> PostgresRow? {
        let current = try stream ?? send(query())
        stream = current
        do {
            if let row = try current.next() { return row }
        } catch {
            stream = nil
            throw failure(error, of: current, canRunAgain: current.rowsRead == 0)
        }
        stream = nil
        try finish(current)
        return nil
    }

    /// Sends a query, whose rows then arrive on the stream while the caller reads them.
    private func send(_ query: PostgresQuery) throws -> PostgreSQLRowStream {
        try Self.refuseEventLoopThread(location: location)
        let connection = try openConnection()
        let stream = PostgreSQLRowStream(query: query)
        if CoreDataLog.sqlDebugLevel > 0 {
            CoreDataLog.sql.debug("sql: \(query.sql)")
        }
        connection.query(query, logger: Self.logger) { stream.receive($0) }.whenComplete { stream.finish($0) }
        let earlier = pipelined
        pipelined = []
        do {
            for future in earlier { _ = try future.wait() }
        } catch {
            throw failure(error, of: stream, canRunAgain: true)
        }
        return stream
    }

    /// The error a query failed with, as the store reports it. A lost connection is closed, and
    /// the error of a query that may run again on a new one is `PostgreSQLConnectionLost`.
    private func failure(_ error: any Error, of stream: PostgreSQLRowStream, canRunAgain: Bool) -> any Error {
        guard PostgreSQLErrors.isConnectionLoss(error) else {
            transactionIsEmpty = false
            return PostgreSQLErrors.error(error, sql: stream.query.sql, location: location)
        }
        discardConnection()
        guard canRunAgain, !isInTransaction || transactionIsEmpty else { return PostgreSQLErrors.error(error, sql: stream.query.sql, location: location) }
        return PostgreSQLConnectionLost(reason: PostgreSQLErrors.reason(of: error))
    }

    /// The open connection, or a new one when the last was lost. A transaction that has run
    /// nothing but its `BEGIN` starts again on the new one, so that no statement meant for it
    /// runs outside it.
    private func openConnection() throws -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        // A transaction that ran statements is gone with its connection: what follows must not
        // run on a new one, outside it, until the store rolls back.
        guard !isInTransaction || transactionIsEmpty else {
            throw PostgreSQLErrors.make(NSPersistentStoreOperationError, "The connection to the PostgreSQL server was lost in the middle of a transaction, which the server rolled back.", location: location)
        }
        discardConnection()
        try connect()
        guard let connection else { throw PostgreSQLErrors.make(NSPersistentStoreOperationError, "The PostgreSQL server did not accept a connection.", location: location) }
        if isInTransaction {
            pipelined.append(connection.query(PostgresQuery(unsafeSQL: beginStatement), logger: Self.logger))
        }
        return connection
    }

    private func connect() throws {
        try Self.refuseEventLoopThread(location: location)
        let id = Self.nextID.add(1, ordering: .relaxed).newValue
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        do {
            connection = try PostgresConnection.connect(on: eventLoop, configuration: address.configuration, id: id, logger: Self.logger).wait()
        } catch {
            throw PostgreSQLErrors.make(
                NSPersistentStoreOpenError,
                "The PostgreSQL server at \(address.url.absoluteString) cannot be reached (\(PostgreSQLErrors.reason(of: error))).",
                location: location, underlying: error
            )
        }
        statements = [:]
    }

    /// Waiting for an answer on one of NIO's event loops would wait for itself, which NIO stops
    /// with a crash: the store refuses such calls with an error instead.
    static func refuseEventLoopThread(location: URL?) throws {
        guard MultiThreadedEventLoopGroup.currentEventLoop == nil else {
            throw PostgreSQLErrors.make(NSPersistentStoreOperationError, "A PostgreSQL store was called on one of NIO's event loops, where it cannot wait for its answer.", location: location)
        }
    }
}
