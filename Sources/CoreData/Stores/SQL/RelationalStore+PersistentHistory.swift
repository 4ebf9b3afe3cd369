import Foundation

// Persistent history in a relational store: with `NSPersistentHistoryTrackingKey`, every save
// and batch request records a transaction in Apple's history tables, in its own transaction;
// history requests read and delete them.
extension RelationalStore {
    /// Creates the history tables when the options ask for history, or opens a store that
    /// records history without the option read-only, as Apple's Core Data does (writing without
    /// recording would leave holes in the history other programs read).
    package func prepareHistory(fileRecordsHistory: Bool) throws {
        let (connection, schema) = try writingDatabase()
        guard isOptionSet(NSPersistentHistoryTrackingKey) else {
            if fileRecordsHistory, !isReadOnly {
                isReadOnly = true
                WarningLog.shared.warnOnce("the store at \(url?.absoluteString ?? "?") records persistent history but was opened without NSPersistentHistoryTrackingKey: it is read-only.")
            }
            return
        }
        let tombstoneColumns = schema.entities.map { $0.layout.preservedAttributeSlots.count }.max() ?? 0
        if !isReadOnly {
            try connection.transaction {
                try PersistentHistoryTables.create(in: connection, dialect: dialect, tombstoneColumns: tombstoneColumns)
                if !StoreMetadata.recordsHistory(storedMetadata) {
                    storedMetadata[StoreMetadataKey.ancillaryModels] = [NSPersistentHistoryTrackingKey: PersistentHistoryTables.entityVersionHashes]
                    try SQLMetadataTable.write(storedMetadata, to: connection)
                }
            }
        }
        tracksHistory = try PersistentHistoryTables.exist(in: connection, dialect: dialect)
    }

    /// Who the request being run comes from: its context's author and name.
    private var historyOrigin: PersistentHistoryOrigin {
        let context = persistentStoreCoordinator?.requestingContext
        return .init(author: context?.transactionAuthor, contextName: context?.name)
    }

    /// Starts recording a transaction in the open transaction; nil when the store records
    /// no history.
    func historyRecorder() throws -> PersistentHistoryRecorder<Database>? {
        guard tracksHistory else { return nil }
        let (connection, schema) = try writingDatabase()
        return PersistentHistoryRecorder(connection: connection, dialect: dialect, schema: schema, origin: historyOrigin)
    }

    /// Records a save's transaction: its inserted, updated and deleted objects, an update naming
    /// the attributes and relationships it changed.
    package func recordHistory(of changes: StoreSaveChanges, permanentIDs: [NSManagedObjectID]) throws {
        guard var recorder = try historyRecorder() else { return }
        try recordInserts(permanentIDs, into: &recorder)
        var updatedSlots: [NSManagedObjectID: Set<Int>] = [:]
        var order: [NSManagedObjectID] = []
        func noteUpdate(of objectID: NSManagedObjectID, slots: some Sequence<Int>) {
            if updatedSlots[objectID] == nil { order.append(objectID) }
            updatedSlots[objectID, default: []].formUnion(slots)
        }
        for row in changes.updates {
            noteUpdate(of: row.objectID, slots: row.changedSlots)
        }
        // Relationships to many live in other rows or join tables: an object whose only changes
        // are theirs has no row update, yet Apple's history records its update.
        for object in changes.objects.updated {
            noteUpdate(of: object.objectID, slots: object.changedPersistentValues().filter { object.layout.tags[$0] == .toMany })
        }
        for objectID in order where updatedSlots[objectID]?.isEmpty == false {
            try recorder.recordUpdate(of: objectID, slots: updatedSlots[objectID]!.sorted())
        }
        for row in changes.deletes {
            try recorder.recordDelete(of: row.objectID, tombstone: try tombstone(of: row.objectID.entity, values: row.values))
        }
        try recorder.finish()
    }

    /// Records a save's inserts: each run of objects of one entity with consecutive keys with one
    /// statement over the rows themselves (no other row has a key the save has just handed out),
    /// other objects one by one.
    private func recordInserts(_ identifiers: [NSManagedObjectID], into recorder: inout PersistentHistoryRecorder<Database>) throws {
        let schema = try writingDatabase().1
        var start = 0
        while start < identifiers.count {
            let first = identifiers[start]
            var end = start + 1
            if let firstKey = first.primaryKey {
                while end < identifiers.count, identifiers[end].entity === first.entity, identifiers[end].primaryKey == firstKey + Int64(end - start) {
                    end += 1
                }
            }
            if end - start > 1, let firstKey = first.primaryKey, let table = schema.mapping(for: first.entity)?.table {
                try recorder.recordInserts(ofRowsIn: table, keys: firstKey...(firstKey + Int64(end - start - 1)))
            } else {
                try recorder.recordInsert(of: first)
            }
            start = end
        }
    }

    /// The encoded values of an entity's preserved attributes, in the order of the tombstone columns.
    private func tombstone(of entity: NSEntityDescription, values: SlotValues) throws -> [SQLValue] {
        var files = ExternalFileChanges()
        return try entity.layout.preservedAttributeSlots.map { slot in
            guard let attribute = entity.layout.slots[slot].attribute, values.indices.contains(slot) else { return .null }
            return try encode(values[slot], attribute: attribute, files: &files)
        }
    }

    // MARK: Reading

    package func latestHistoryTransactionNumber() throws -> Int64? {
        let (connection, _) = try writingDatabase()
        let latest = try PersistentHistoryRecorder<Database>.lastKey(of: PersistentHistoryTables.transactionNumber, in: connection)
        return latest > 0 ? latest : nil
    }

    package func historyTransactions(after bound: HistoryBound?, includingChanges: Bool) throws -> [HistoryTransactionRecord] {
        let (connection, _) = try writingDatabase()
        // One read transaction: history another process deletes meanwhile is either all there
        // or found missing by the check.
        return try connection.readTransaction {
            try readHistoryTransactions(after: bound, includingChanges: includingChanges, connection: connection)
        }
    }

    private func readHistoryTransactions(after bound: HistoryBound?, includingChanges: Bool, connection: Database) throws -> [HistoryTransactionRecord] {
        if case .transaction(let number) = bound { try checkHistoryFollows(number) }
        let condition = Self.condition(selecting: bound, after: true)
        let strings = try historyStrings(connection)
        let statement = try prepare(SQLFragment(
            sql: "SELECT Z_PK, ZTIMESTAMP, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZAUTHOR, ZBUNDLEID, ZCONTEXTNAME, ZPROCESSID FROM ATRANSACTION WHERE \(condition.sql) ORDER BY Z_PK",
            bindings: condition.bindings
        ), on: connection)
        var transactions: [HistoryTransactionRecord] = []
        while try statement.step() {
            func string(_ column: Int32) -> String? {
                (statement.isNull(at: column) ? nil : strings[statement.int64(at: column)]) ?? statement.string(at: column + 4)
            }
            transactions.append(HistoryTransactionRecord(
                number: statement.int64(at: 0),
                timestamp: Date(timeIntervalSinceReferenceDate: statement.double(at: 1)),
                author: string(2), bundleID: string(3), contextName: string(4), processID: string(5),
                changes: includingChanges ? [] : nil
            ))
        }
        guard includingChanges, !transactions.isEmpty else { return transactions }
        let changes = try historyChanges(where: condition, connection: connection)
        for index in transactions.indices {
            transactions[index].changes = changes[transactions[index].number] ?? []
        }
        return transactions
    }

    /// Fails with 134301 when transactions after `number` were deleted: reading on would miss them.
    private func checkHistoryFollows(_ number: Int64) throws {
        let (connection, _) = try writingDatabase()
        let latest = try latestHistoryTransactionNumber() ?? 0
        let oldest = try connection.scalar("SELECT Z_PK FROM ATRANSACTION ORDER BY Z_PK LIMIT 1")
        let firstMissing = oldest.map { $0 > number + 1 } ?? (latest > number)
        if firstMissing {
            throw CoreDataError.make(
                NSPersistentHistoryTokenExpiredError,
                "The persistent history token refers to transaction \(number) of the store at \(url?.absoluteString ?? "?"), but the history after it was deleted."
            )
        }
    }

    /// The interned strings of the transactions, by key.
    private func historyStrings(_ connection: Database) throws -> [Int64: String] {
        var strings: [Int64: String] = [:]
        let statement = try connection.statement("SELECT Z_PK, ZNAME FROM ATRANSACTIONSTRING")
        while try statement.step() {
            strings[statement.int64(at: 0)] = statement.string(at: 1)
        }
        return strings
    }

    /// The changes of the transactions a condition selects, by transaction number, in order.
    private func historyChanges(where condition: SQLFragment, connection: Database) throws -> [Int64: [HistoryChangeRecord]] {
        let schema = try writingDatabase().1
        let tombstoneColumns = try PersistentHistoryTables.tombstoneColumnCount(in: connection, dialect: dialect)
        let tombstones = (0..<tombstoneColumns).map { ", ZTOMBSTONE\($0)" }.joined()
        let statement = try prepare(SQLFragment(
            sql: "SELECT Z_PK, ZTRANSACTIONID, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZCOLUMNS\(tombstones) FROM ACHANGE WHERE ZTRANSACTIONID IN (SELECT Z_PK FROM ATRANSACTION WHERE \(condition.sql)) ORDER BY Z_PK",
            bindings: condition.bindings
        ), on: connection)
        var changes: [Int64: [HistoryChangeRecord]] = [:]
        var columnsByEntity: [ObjectIdentifier: PersistentHistoryColumns] = [:]
        while try statement.step() {
            // Changes of entities this model does not have (written with another model) are left out.
            guard let entity = schema.rowEntity(number: statement.int64(at: 3)) else { continue }
            let type = statement.int64(at: 2)
            let layout = entity.layout
            var updated: [NSPropertyDescription]?
            if type == PersistentHistoryTables.updateType, let bitmap = statement.data(at: 5) {
                let columns = columnsByEntity[ObjectIdentifier(entity)] ?? PersistentHistoryColumns(entity: entity)
                columnsByEntity[ObjectIdentifier(entity)] = columns
                updated = columns.decode(bitmap).map { layout.slots[$0].property }
            }
            var tombstone: [String: Any]?
            if type == PersistentHistoryTables.deleteType {
                var values: [String: Any] = [:]
                for (index, slot) in layout.preservedAttributeSlots.enumerated() where index < tombstoneColumns {
                    let stored = SQLValueRow(value: SQLValue(untypedColumnValue: statement.value(at: Int32(6 + index)), in: dialect))
                    guard let attribute = layout.slots[slot].attribute, let value = SQLValueCodec.decode(stored, at: 0, for: attribute) else { continue }
                    values[attribute.name] = value
                }
                tombstone = values
            }
            let transaction = statement.int64(at: 1)
            changes[transaction, default: []].append(HistoryChangeRecord(
                number: statement.int64(at: 0), transactionNumber: transaction, kind: Int(type),
                objectID: objectID(for: entity, primaryKey: statement.int64(at: 4)),
                updatedProperties: updated, tombstone: tombstone
            ))
        }
        return changes
    }

    // MARK: Deleting

    package func deleteHistory(before bound: HistoryBound?) throws -> Int {
        let (connection, _) = try writingDatabase()
        let condition = Self.condition(selecting: bound, after: false)
        return try connection.transaction {
            try prepare(SQLFragment(sql: "DELETE FROM ACHANGE WHERE ZTRANSACTIONID IN (SELECT Z_PK FROM ATRANSACTION WHERE \(condition.sql))", bindings: condition.bindings), on: connection).run()
            try prepare(SQLFragment(sql: "DELETE FROM ATRANSACTION WHERE \(condition.sql)", bindings: condition.bindings), on: connection).run()
            return connection.changes
        }
    }

    /// The `ATRANSACTION` rows after (or, for deletes, up to) a bound. A delete before a
    /// transaction deletes that transaction too: the program has read it.
    private static func condition(selecting bound: HistoryBound?, after: Bool) -> SQLFragment {
        switch bound {
        case nil: .alwaysTrue
        case .transaction(let number): SQLFragment(sql: after ? "Z_PK > ?" : "Z_PK <= ?", bindings: [.integer(number)])
        case .date(let date): SQLFragment(sql: after ? "ZTIMESTAMP > ?" : "ZTIMESTAMP < ?", bindings: [.real(date.timeIntervalSinceReferenceDate)])
        }
    }
}
