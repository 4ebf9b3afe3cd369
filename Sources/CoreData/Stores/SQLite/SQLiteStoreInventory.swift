/// What a SQLite store file holds beyond its metadata, for tools that look inside a store
/// without its model (`coredata inspect`): the rows of each entity, persistent history, external
/// binary data and the sizes of its files.
package struct SQLiteStoreInventory: Sendable {
    /// The number of rows of each entity `Z_PRIMARYKEY` names, by entity name, counted by
    /// `Z_ENT` in every table of the file.
    package let rowCountsByEntity: [String: Int]
    /// The transactions of persistent history; nil for a store that records none.
    package let historyTransactions: Int?
    /// The changes of persistent history; nil for a store that records none.
    package let historyChanges: Int?
    /// The files of external binary data in the store's support folder.
    package let externalDataFiles: Int
    /// The bytes of those files.
    package let externalDataBytes: Int
    /// The bytes of the store file and of its write-ahead log and shared-memory files, when they
    /// are there, by file name, in that order.
    package let fileSizes: [(name: String, bytes: Int)]
}

extension SQLiteStoreInventory {
    /// Reads the inventory of the store in a file, without changing the file.
    ///
    /// - Throws: The errors of opening a store that is damaged, or not a Core Data store (134080).
    package init(storeAt url: URL) throws {
        let (rowCounts, history) = try SQLiteStore.inspect(url) { connection, contents in
            (try Self.rowCountsByEntity(in: connection, layout: contents.layout), try Self.historySize(in: connection))
        }
        let externalData = ExternalBinaryStorage(storeURL: url).directory
        let externalFiles = ((try? FileManager.default.contentsOfDirectory(at: externalData, includingPropertiesForKeys: [.fileSizeKey])) ?? [])
        let files = [url] + ["-wal", "-shm"].map { URL(fileURLWithPath: url.path + $0) }
        self.init(
            rowCountsByEntity: rowCounts,
            historyTransactions: history?.transactions,
            historyChanges: history?.changes,
            externalDataFiles: externalFiles.count,
            externalDataBytes: externalFiles.reduce(0) { $0 + SQLiteStore.fileSize($1) },
            fileSizes: files.filter { FileManager.default.fileExists(atPath: $0.path) }.map { ($0.lastPathComponent, SQLiteStore.fileSize($0)) }
        )
    }

    /// Rows by entity name: every entity table (a table with a `Z_ENT` column but
    /// `Z_PRIMARYKEY`), grouped by it. History's own entities are history's size, not the store's.
    private static func rowCountsByEntity(in connection: SQLiteConnection, layout: SQLSchema.StoredLayout) throws -> [String: Int] {
        let historyNumbers: Set<Int64> = [PersistentHistoryTables.changeNumber, PersistentHistoryTables.transactionNumber, PersistentHistoryTables.stringNumber]
        let namesByNumber = Dictionary(layout.numbersByName.filter { !historyNumbers.contains($0.value) }.map { ($0.value, $0.key) }) { first, _ in first }
        var counts = Dictionary(uniqueKeysWithValues: namesByNumber.values.map { ($0, 0) })
        for (table, columns) in layout.columnsByTable.sorted(by: { $0.key < $1.key }) where columns.contains("Z_ENT") && table != "Z_PRIMARYKEY" {
            let statement = try connection.statement("SELECT Z_ENT, COUNT(*) FROM \(SQLiteStore.quoted(table)) GROUP BY Z_ENT")
            while try statement.step() {
                if let name = namesByNumber[statement.int64(at: 0)] { counts[name, default: 0] += Int(statement.int64(at: 1)) }
            }
        }
        return counts
    }

    private static func historySize(in connection: SQLiteConnection) throws -> (transactions: Int, changes: Int)? {
        guard try connection.schemaObjectExists("ATRANSACTION"), try connection.schemaObjectExists("ACHANGE") else { return nil }
        return (Int(try connection.scalar("SELECT COUNT(*) FROM ATRANSACTION") ?? 0), Int(try connection.scalar("SELECT COUNT(*) FROM ACHANGE") ?? 0))
    }
}
