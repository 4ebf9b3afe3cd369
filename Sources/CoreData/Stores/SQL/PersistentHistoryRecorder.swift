import Foundation

/// Records one transaction of persistent history inside a save's or batch request's open
/// transaction: its `ATRANSACTION` row with the first change, then an `ACHANGE` row per changed
/// object. Work that changes no object records no transaction.
///
/// Readers ask for the transactions after the last one they read, by number, so numbers must
/// follow the order of commits: where several connections write at once (a database server),
/// the recorder takes the dialect's history lock before it numbers its transaction, and holds it
/// until the commit.
struct PersistentHistoryRecorder<Database: SQLDatabase> {
    private let connection: Database
    private let dialect: SQLDialect
    private let schema: SQLSchema
    private let origin: PersistentHistoryOrigin
    /// The transaction being recorded, once its row is written.
    private var started: Started?
    /// The key of the next change; kept apart from `started`, which each change then only reads.
    private var nextChangeKey: Int64 = 0
    /// The entity number of the last entity asked about, which the next change mostly shares.
    private var lastEntity: (entity: ObjectIdentifier, number: Int64)?
    /// The bitmap positions of each entity updated so far.
    private var columnsByEntity: [ObjectIdentifier: PersistentHistoryColumns] = [:]

    /// A transaction whose row is written, and how its changes are written.
    private struct Started {
        let transactionNumber: Int64
        let insertChange: Database.Statement
        let tombstoneColumns: Int
    }

    /// A recorder of a transaction made by `origin`; nothing is written before its first change.
    init(connection: Database, dialect: SQLDialect, schema: SQLSchema, origin: PersistentHistoryOrigin) {
        self.connection = connection
        self.dialect = dialect
        self.schema = schema
        self.origin = origin
    }

    /// Writes the transaction's row, committed now, even without changes (a migration's).
    mutating func recordTransaction() throws {
        guard started == nil else { return }
        started = try start()
        nextChangeKey = (try Self.lastKey(of: PersistentHistoryTables.changeNumber, in: connection)) + 1
    }

    private func start() throws -> Started {
        if let lock = dialect.historyLock { try connection.execute(lock) }
        let transactionNumber = try Self.reserveKeys(1, of: PersistentHistoryTables.transactionNumber, in: connection)
        let strings = try [origin.author, PersistentHistoryOrigin.bundleID, origin.contextName, PersistentHistoryOrigin.processID].map { try $0.map { try Self.intern($0, in: connection) } }
        let columns = PersistentHistoryTables.stringColumns.joined(separator: ", ")
        let transaction = try connection.statement("INSERT INTO ATRANSACTION (Z_PK, Z_ENT, \(columns), ZTIMESTAMP) VALUES (?, ?, ?, ?, ?, ?, ?)")
        transaction.bind([.integer(transactionNumber), .integer(PersistentHistoryTables.transactionNumber)]
            + strings.map { $0.map(SQLValue.integer) ?? .null } + [.real(Date().timeIntervalSinceReferenceDate)])
        try transaction.run()
        let tombstoneColumns = try PersistentHistoryTables.tombstoneColumnCount(in: connection, dialect: dialect)
        let tombstones = (0..<tombstoneColumns).map { ", ZTOMBSTONE\($0)" }.joined()
        let insertChange = try connection.statement(
            "INSERT INTO ACHANGE (Z_PK, Z_ENT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS\(tombstones)) VALUES (\(SQLPredicateCompiler.placeholders(7 + tombstoneColumns)))"
        )
        return Started(transactionNumber: transactionNumber, insertChange: insertChange, tombstoneColumns: tombstoneColumns)
    }

    mutating func recordInsert(of objectID: NSManagedObjectID) throws {
        try record(PersistentHistoryTables.insertType, of: objectID, columns: nil, tombstone: [])
    }

    /// Records an insert of each row of `table` whose key is in `keys`: rows the save has just
    /// inserted, in one statement.
    mutating func recordInserts(ofRowsIn table: String, keys: ClosedRange<Int64>) throws {
        try recordTransaction()
        guard let transaction = started else { return }
        let statement = try connection.statement(
            "INSERT INTO ACHANGE (Z_PK, Z_ENT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID) SELECT ? + Z_PK, ?, ?, Z_ENT, Z_PK, ? FROM \(table) WHERE Z_PK BETWEEN ? AND ?"
        )
        statement.bind([nextChangeKey - keys.lowerBound, PersistentHistoryTables.changeNumber, PersistentHistoryTables.insertType,
                        transaction.transactionNumber, keys.lowerBound, keys.upperBound].map(SQLValue.integer))
        try statement.run()
        nextChangeKey += Int64(keys.count)
    }

    /// Records an update of the properties in `slots` of an object's entity layout.
    mutating func recordUpdate(of objectID: NSManagedObjectID, slots: some Sequence<Int>) throws {
        let entity = objectID.entity
        let columns = columnsByEntity[ObjectIdentifier(entity)] ?? PersistentHistoryColumns(entity: entity)
        columnsByEntity[ObjectIdentifier(entity)] = columns
        try record(PersistentHistoryTables.updateType, of: objectID, columns: columns.encode(slots), tombstone: [])
    }

    /// Records a delete, with the encoded values of the entity's preserved attributes in the
    /// order of the entity layout's `preservedAttributeSlots`.
    mutating func recordDelete(of objectID: NSManagedObjectID, tombstone: [SQLValue]) throws {
        try record(PersistentHistoryTables.deleteType, of: objectID, columns: nil, tombstone: tombstone)
    }

    private mutating func record(_ type: Int64, of objectID: NSManagedObjectID, columns: Data?, tombstone: [SQLValue]) throws {
        guard let entityNumber = entityNumber(of: objectID.entity), let primaryKey = objectID.primaryKey else { return }
        try recordTransaction()
        guard let transaction = started else { return }
        let statement = transaction.insertChange
        statement.reset()
        statement.bind([nextChangeKey, PersistentHistoryTables.changeNumber, type, entityNumber, primaryKey, transaction.transactionNumber].map(SQLValue.integer)
            + [columns.map(SQLValue.blob) ?? .null]
            + (0..<transaction.tombstoneColumns).map { $0 < tombstone.count ? tombstone[$0].untypedColumnValue(in: dialect) : .null })
        try statement.run()
        nextChangeKey += 1
    }

    private mutating func entityNumber(of entity: NSEntityDescription) -> Int64? {
        if let lastEntity, lastEntity.entity == ObjectIdentifier(entity) { return lastEntity.number }
        guard let number = schema.mapping(for: entity)?.number else { return nil }
        lastEntity = (ObjectIdentifier(entity), number)
        return number
    }

    /// Records the last change key handed out, once the transaction has started.
    func finish() throws {
        guard started != nil else { return }
        let statement = try connection.statement("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
        statement.bind([.integer(nextChangeKey - 1), .integer(PersistentHistoryTables.changeNumber)])
        try statement.run()
    }

    // MARK: Keys and strings

    /// Hands out `count` keys of a history table and returns the first.
    private static func reserveKeys(_ count: Int64, of entityNumber: Int64, in connection: Database) throws -> Int64 {
        let statement = try connection.statement("UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + ? WHERE Z_ENT = ? RETURNING Z_MAX")
        statement.bind([.integer(count), .integer(entityNumber)])
        guard let last = try statement.readFirstRow({ $0.int64(at: 0) }) else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The store's Z_PRIMARYKEY table has no row for persistent history (\(entityNumber)).")
        }
        return last - count + 1
    }

    /// The key of a string in `ATRANSACTIONSTRING`, added when new.
    /// The last key handed out for a history table (`Z_PRIMARYKEY.Z_MAX`); 0 before the first.
    static func lastKey(of entityNumber: Int64, in connection: Database) throws -> Int64 {
        try connection.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = \(entityNumber)") ?? 0
    }

    private static func intern(_ string: String, in connection: Database) throws -> Int64 {
        let lookup = try connection.statement("SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?")
        lookup.bind(.text(string), at: 1)
        if let key = try lookup.readFirstRow({ $0.int64(at: 0) }) { return key }
        let key = try reserveKeys(1, of: PersistentHistoryTables.stringNumber, in: connection)
        let insert = try connection.statement("INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, ZNAME) VALUES (?, ?, ?)")
        insert.bind([.integer(key), .integer(PersistentHistoryTables.stringNumber), .text(string)])
        try insert.run()
        return key
    }
}

/// Who made a transaction of persistent history, as its row names them.
struct PersistentHistoryOrigin {
    var author: String?
    var contextName: String?

    /// The program's bundle identifier; its process name on Linux, where programs have none.
    static let bundleID = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    /// The process's name, which Apple's history records as its "process ID".
    static let processID = ProcessInfo.processInfo.processName
}
