import Foundation

/// Records one transaction of persistent history inside a save's or batch request's open SQLite
/// transaction: its `ATRANSACTION` row with the first change, then an `ACHANGE` row per changed
/// object. Work that changes no object records no transaction.
struct SQLitePersistentHistoryRecorder {
    private let connection: SQLiteConnection
    private let schema: SQLSchema
    private let origin: Origin
    /// The transaction being recorded, once its row is written.
    private var started: Started?
    /// The key of the next change; kept apart from `started`, which each change then only reads.
    private var nextChangeKey: Int64 = 0
    /// The entity number of the last entity asked about, which the next change mostly shares.
    private var lastEntity: (entity: ObjectIdentifier, number: Int64)?
    /// The bitmap positions of each entity updated so far.
    private var columnsByEntity: [ObjectIdentifier: SQLitePersistentHistoryColumns] = [:]

    /// Who made a transaction, as its row names them.
    struct Origin {
        var author: String?
        var contextName: String?

        /// The program's bundle identifier; its process name on Linux, where programs have none.
        static let bundleID = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
        /// The process's name, which Apple's history records as its "process ID".
        static let processID = ProcessInfo.processInfo.processName
    }

    /// A transaction whose row is written, and how its changes are written.
    private struct Started {
        let transactionNumber: Int64
        let insertChange: SQLiteStatement
        let tombstoneColumns: Int
    }

    /// A recorder of a transaction made by `origin`; nothing is written before its first change.
    init(connection: SQLiteConnection, schema: SQLSchema, origin: Origin) {
        self.connection = connection
        self.schema = schema
        self.origin = origin
    }

    /// Writes the transaction's row, committed now, even without changes (a migration's).
    mutating func recordTransaction() throws {
        guard started == nil else { return }
        started = try start()
        nextChangeKey = (try PrimaryKeyAllocator.lastKey(of: SQLitePersistentHistoryTables.changeNumber, in: connection)) + 1
    }

    private func start() throws -> Started {
        let transactionNumber = try Self.reserveKeys(1, of: SQLitePersistentHistoryTables.transactionNumber, in: connection)
        let strings = try [origin.author, Origin.bundleID, origin.contextName, Origin.processID].map { try $0.map { try Self.intern($0, in: connection) } }
        let columns = SQLitePersistentHistoryTables.stringColumns.joined(separator: ", ")
        let transaction = try connection.statement("INSERT INTO ATRANSACTION (Z_PK, Z_ENT, \(columns), ZTIMESTAMP) VALUES (?, ?, ?, ?, ?, ?, ?)")
        transaction.bind(transactionNumber, at: 1)
        transaction.bind(SQLitePersistentHistoryTables.transactionNumber, at: 2)
        for (index, string) in strings.enumerated() {
            if let string { transaction.bind(string, at: Int32(index + 3)) } else { transaction.bindNull(at: Int32(index + 3)) }
        }
        transaction.bind(Date().timeIntervalSinceReferenceDate, at: 7)
        try transaction.run()
        let tombstoneColumns = try SQLitePersistentHistoryTables.tombstoneColumnCount(in: connection)
        let tombstones = (0..<tombstoneColumns).map { ", ZTOMBSTONE\($0)" }.joined()
        let insertChange = try connection.statement(
            "INSERT INTO ACHANGE (Z_PK, Z_ENT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS\(tombstones)) VALUES (\(SQLPredicateCompiler.placeholders(7 + tombstoneColumns)))"
        )
        return Started(transactionNumber: transactionNumber, insertChange: insertChange, tombstoneColumns: tombstoneColumns)
    }

    mutating func recordInsert(of objectID: NSManagedObjectID) throws {
        try record(SQLitePersistentHistoryTables.insertType, of: objectID, columns: nil, tombstone: [])
    }

    /// Records an insert of each row of `table` whose key is in `keys`: rows the save has just
    /// inserted, in one statement.
    mutating func recordInserts(ofRowsIn table: String, keys: ClosedRange<Int64>) throws {
        try recordTransaction()
        guard let transaction = started else { return }
        let statement = try connection.statement(
            "INSERT INTO ACHANGE (Z_PK, Z_ENT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID) SELECT ?1 + Z_PK - ?2, ?3, ?4, Z_ENT, Z_PK, ?5 FROM \(table) WHERE Z_PK BETWEEN ?2 AND ?6"
        )
        statement.bind(nextChangeKey, at: 1)
        statement.bind(keys.lowerBound, at: 2)
        statement.bind(SQLitePersistentHistoryTables.changeNumber, at: 3)
        statement.bind(SQLitePersistentHistoryTables.insertType, at: 4)
        statement.bind(transaction.transactionNumber, at: 5)
        statement.bind(keys.upperBound, at: 6)
        try statement.run()
        nextChangeKey += Int64(keys.count)
    }

    /// Records an update of the properties in `slots` of an object's entity layout.
    mutating func recordUpdate(of objectID: NSManagedObjectID, slots: some Sequence<Int>) throws {
        let entity = objectID.entity
        let columns = columnsByEntity[ObjectIdentifier(entity)] ?? SQLitePersistentHistoryColumns(entity: entity)
        columnsByEntity[ObjectIdentifier(entity)] = columns
        try record(SQLitePersistentHistoryTables.updateType, of: objectID, columns: columns.encode(slots), tombstone: [])
    }

    /// Records a delete, with the encoded values of the entity's preserved attributes in the
    /// order of the entity layout's `preservedAttributeSlots`.
    mutating func recordDelete(of objectID: NSManagedObjectID, tombstone: [SQLValue]) throws {
        try record(SQLitePersistentHistoryTables.deleteType, of: objectID, columns: nil, tombstone: tombstone)
    }

    private mutating func record(_ type: Int64, of objectID: NSManagedObjectID, columns: Data?, tombstone: [SQLValue]) throws {
        guard let entityNumber = entityNumber(of: objectID.entity), let primaryKey = objectID.primaryKey else { return }
        try recordTransaction()
        guard let transaction = started else { return }
        let statement = transaction.insertChange
        statement.reset()
        statement.bind(nextChangeKey, at: 1)
        statement.bind(SQLitePersistentHistoryTables.changeNumber, at: 2)
        statement.bind(type, at: 3)
        statement.bind(entityNumber, at: 4)
        statement.bind(primaryKey, at: 5)
        statement.bind(transaction.transactionNumber, at: 6)
        if let columns { statement.bind(columns, at: 7) } else { statement.bindNull(at: 7) }
        for index in 0..<transaction.tombstoneColumns {
            statement.bind(index < tombstone.count ? tombstone[index] : .null, at: Int32(index + 8))
        }
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
        statement.bind(nextChangeKey - 1, at: 1)
        statement.bind(SQLitePersistentHistoryTables.changeNumber, at: 2)
        try statement.run()
    }

    // MARK: Keys and strings

    /// Hands out `count` keys of a history table and returns the first.
    private static func reserveKeys(_ count: Int64, of entityNumber: Int64, in connection: SQLiteConnection) throws -> Int64 {
        let statement = try connection.statement("UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + ? WHERE Z_ENT = ? RETURNING Z_MAX")
        statement.bind(count, at: 1)
        statement.bind(entityNumber, at: 2)
        guard let last = try statement.readFirstRow({ $0.int64(at: 0) }) else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The store's Z_PRIMARYKEY table has no row for persistent history (\(entityNumber)).")
        }
        return last - count + 1
    }

    /// The key of a string in `ATRANSACTIONSTRING`, added when new.
    private static func intern(_ string: String, in connection: SQLiteConnection) throws -> Int64 {
        let lookup = try connection.statement("SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?")
        lookup.bind(string, at: 1)
        if let key = try lookup.readFirstRow({ $0.int64(at: 0) }) { return key }
        let key = try reserveKeys(1, of: SQLitePersistentHistoryTables.stringNumber, in: connection)
        let insert = try connection.statement("INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, ZNAME) VALUES (?, ?, ?)")
        insert.bind(key, at: 1)
        insert.bind(SQLitePersistentHistoryTables.stringNumber, at: 2)
        insert.bind(string, at: 3)
        try insert.run()
        return key
    }
}
