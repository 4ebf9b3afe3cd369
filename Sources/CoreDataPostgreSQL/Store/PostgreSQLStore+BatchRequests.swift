import CoreData

// What the PostgreSQL store adds to the relational stores' batch requests
// (`RelationalStore+BatchRequests`): a transaction that notifies the store's commit listeners,
// and keys from the blocks the store reserves.
extension PostgreSQLStore {
    /// A statement's round trip costs more than its rows: as many rows as its parameters allow.
    static let rowsPerInsert = Int.max

    func batchTransaction<Result>(_ body: (PostgreSQLConnection, inout ExternalFileChanges) throws -> Result) throws -> Result {
        let (connection, _) = try writingDatabase()
        var files = ExternalFileChanges()
        return try connection.transaction {
            let result = try body(connection, &files)
            try notifyCommit(on: connection)
            return result
        }
    }

    /// The store keeps binary data in its rows, never in files (a save's values too, and a
    /// deleted object's history).
    func encode(_ value: Any?, attribute: NSAttributeDescription, files: inout ExternalFileChanges) throws -> SQLValue {
        try SQLValueCodec.encode(value, for: attribute)
    }

    /// Keys reserved at once, outside the request's transaction, as a save's are.
    func batchPrimaryKeys(count: Int, of entity: NSEntityDescription) throws -> any PrimaryKeySource {
        let (connection, schema) = try writingDatabase()
        let root = try rootNumber(of: entity, schema: schema)
        try keyBlocks.reserve([root: count], connection: connection)
        return ReservedPrimaryKeys(keys: (0..<count).compactMap { _ in keyBlocks.next(forRoot: root) })
    }
}

/// Keys reserved before a batch insert's transaction, handed out in order.
private struct ReservedPrimaryKeys: PrimaryKeySource {
    let keys: [Int64]
    private var position = 0

    init(keys: [Int64]) {
        self.keys = keys
    }

    mutating func next(for entity: NSEntityDescription) throws -> Int64 {
        guard position < keys.count else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "A batch insert into the PostgreSQL store used more keys than it reserved.")
        }
        position += 1
        return keys[position - 1]
    }

    func commit() throws {}
}
