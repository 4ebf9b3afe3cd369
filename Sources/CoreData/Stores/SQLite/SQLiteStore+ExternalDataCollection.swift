import CSQLite

// Removing the external data files that no committed row refers to, when the store opens.
//
// A save writes its files inside its write transaction and commits after; it removes the files
// it replaced after committing. A process stopped in between (killed, crashed, out of power)
// leaves files that no row refers to: those of the save that never committed, those its commit
// made obsolete, and a file written halfway. Nothing else would ever remove them.
extension SQLiteStore {
    /// Removes the files of `_EXTERNAL_DATA` that no committed row refers to.
    ///
    /// It holds SQLite's write lock (`BEGIN IMMEDIATE`) while it lists the folder, reads the
    /// references and removes files: every save, of any coordinator or process, writes its files
    /// while it holds that lock, so none is halfway through a save then, and the rows read are
    /// the latest committed ones. Opening a store never waits for another writer: when one holds
    /// the lock, the files stay until the store is opened again.
    func collectUnreferencedExternalFiles() {
        // Files of another store that shares the support folder are not this store's to judge.
        guard !isReadOnly, let url, external.hasFiles, !ExternalBinaryStorage.sharesSupportDirectory(url) else { return }
        do {
            // A connection of its own, which does not wait for the lock, closed before the store
            // is used.
            let connection = try SQLiteConnection(path: url.path, readOnly: false, create: false, busyTimeout: 0)
            defer { connection.close() }
            try connection.transaction {
                external.removeFiles(notIn: try referencedExternalFileNames(connection))
            }
        } catch let error as NSError where (error.userInfo[NSSQLiteErrorDomain] as? Int ?? 0) & 0xFF == SQLITE_BUSY {
            return
        } catch {
            CoreDataLog.store.warning("the external data files of \(url.path) that no row refers to stay: \(CoreDataError.reason(of: error))")
        }
    }

    /// The names of the files that rows refer to, in any BLOB column of any table of the file,
    /// including tables and attributes the model does not know: a file is kept unless no row at
    /// all can refer to it. A column is read only where its length is that of a reference, which
    /// SQLite knows without reading the value, so large inline values are not read.
    private func referencedExternalFileNames(_ connection: SQLiteConnection) throws -> Set<String> {
        var names = Set<String>()
        let lengths = ExternalBinaryStorage.referenceLengths.map(String.init).joined(separator: ", ")
        for (table, column) in try blobColumns(connection) {
            let statement = try connection.statement("SELECT \(column) FROM \(table) WHERE length(\(column)) IN (\(lengths))")
            while try statement.step() {
                if let name = ExternalBinaryStorage.referencedName(statement.data(at: 0)) { names.insert(name) }
            }
        }
        return names
    }

    /// Every column declared BLOB, with its table, both quoted for SQL.
    private func blobColumns(_ connection: SQLiteConnection) throws -> [(table: String, column: String)] {
        let statement = try connection.statement("""
            SELECT m.name, c.name FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS c
            WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND upper(c.type) = 'BLOB'
            """)
        var columns: [(table: String, column: String)] = []
        while try statement.step() {
            guard let table = statement.string(at: 0), let column = statement.string(at: 1) else { continue }
            columns.append((Self.quoted(table), Self.quoted(column)))
        }
        return columns
    }

    /// An identifier quoted for SQL, whatever characters a file's own names hold.
    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
