import CSQLite

/// The SQLite persistent store (`NSSQLiteStoreType`), in Apple's on-disk layout.
///
/// The store file is a SQLite database in WAL mode holding `Z_PRIMARYKEY`, `Z_METADATA`,
/// `Z_MODELCACHE`, one table per inheritance root, join tables and indexes, as
/// `spec/store-format.md` describes. Every save is one transaction. A file that is not a Core Data
/// store, or is damaged, is refused with an error and left as it was.
// Used only under its coordinator's lock, like every store.
final class SQLiteStore: NSPersistentStore, RelationalStore, @unchecked Sendable {
    private var connection: SQLiteConnection?
    private(set) var schema: SQLSchema?
    let queryCache = SQLiteQueryCache()
    /// The save whose transaction is open between `beginSave` and `finishSave`.
    var pendingSave: PendingSave?
    /// While a context pinned to a query generation reads: the snapshot its reads go through.
    var pinnedRead: SQLReadSnapshot<SQLiteConnection>?
    /// The external data files beside the store file (replaced when the store moves).
    lazy var externalStorage = ExternalBinaryStorage(storeURL: url ?? URL(fileURLWithPath: "/"))
    /// Reports commits to the file while the coordinator posts remote-change notifications.
    var commitObserver: SQLiteCommitObserver?
    /// Whether saves and batch requests record persistent history (`NSPersistentHistoryTrackingKey`).
    var tracksHistory = false

    override var type: String {
        NSSQLiteStoreType
    }

    /// Fetch request expressions compile to subqueries (`SQLPredicateCompiler+Subfetches`).
    var compilesSubfetches: Bool { true }

    override class func metadataForPersistentStore(with url: URL) throws -> [String: Any] {
        try readMetadata(at: url)
    }

    override class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreAt url: URL) throws {
        try writeMetadata(metadata ?? [:], at: url)
    }

    override class func location(for url: URL?) throws -> URL {
        guard let url else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "A SQLite store needs a file URL.")
        }
        guard url.isFileURL else {
            throw CoreDataError.storeOpen(url, "a SQLite store needs a file URL.")
        }
        return url
    }

    /// Deletes the store file, its journal files and its external data.
    override class func destroyStore(at url: URL) throws {
        let manager = FileManager.default
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let path = url.path + suffix
            if manager.fileExists(atPath: path) { try manager.removeItem(atPath: path) }
        }
        let support = ExternalBinaryStorage.supportDirectory(for: url)
        if manager.fileExists(atPath: support.path) { try manager.removeItem(at: support) }
    }

    // MARK: Loading

    func load(model: NSManagedObjectModel) throws {
        guard let url else { throw CoreDataError.storeOpen(nil, "the store has no URL.") }
        let configured = model.entities(forConfigurationName: configurationName) ?? model.entities
        let entities = SQLSchema.storeEntities(in: model, configuration: configurationName)
        var recordsModelHashes = false
        if let (metadata, layout) = try Self.existingContents(url) {
            let ignoresVersions = isOptionSet(NSIgnorePersistentStoreVersioningOption)
            let isCompatible = isCompatible(metadata, with: model)
            guard isCompatible || ignoresVersions else { throw incompatibleVersionError(metadata, url: url) }
            let connection = try openConnection(url, create: false)
            let schema = SQLSchema(entities: entities, stored: layout)
            // Without version checks, the columns are the program's business, as on Apple
            // platforms: a fetch of a column the file lacks fails then.
            try schema.verify(against: layout, location: url, requiringEveryColumn: !ignoresVersions)
            self.connection = connection
            self.schema = schema
            storedMetadata = metadata
            try prepareHistory(fileRecordsHistory: layout.columnsByTable["ATRANSACTION"] != nil || StoreMetadata.recordsHistory(metadata))
            collectUnreferencedExternalFiles()
            if !isCompatible {
                // Apple's store still records the model's version hashes, at the next save.
                storedMetadata.merge(StoreMetadata.modelKeys(for: configured, model: model)) { _, model in model }
                recordsModelHashes = true
            }
        } else {
            guard !isReadOnly else {
                throw CoreDataError.storeOpen(url, "there is no store file to open read-only.")
            }
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let connection = try openConnection(url, create: true)
            let schema = SQLSchema(entities: entities)
            var metadata = newStoreMetadata(for: model)
            metadata[StoreMetadataKey.autoVacuumLevel] = "2"
            try Self.create(schema, metadata: metadata, in: connection)
            self.connection = connection
            self.schema = schema
            storedMetadata = metadata
            try prepareHistory(fileRecordsHistory: false)
        }
        identifier = storedMetadata[NSStoreUUIDKey] as? String
        metadataChanged = recordsModelHashes
    }

    func unload() {
        commitObserver?.stop()
        commitObserver = nil
        queryCache.removeAll()
        connection?.close()
        connection = nil
    }

    private func openConnection(_ url: URL, create: Bool) throws -> SQLiteConnection {
        let connection: SQLiteConnection
        do {
            let timeout = (options?[NSPersistentStoreTimeoutOption] as? NSNumber)?.doubleValue ?? 5
            connection = try SQLiteConnection(path: url.path, readOnly: isReadOnly, create: create, busyTimeout: timeout)
        } catch {
            throw Self.openingError(error, url: url)
        }
        try SQLiteFunctions.register(on: connection)
        connection.onCacheCleared = { [queryCache] in queryCache.removeAll() }
        if create {
            try connection.execute("PRAGMA auto_vacuum = INCREMENTAL; PRAGMA page_size = 4096")
        }
        try applyPragmas(to: connection)
        return connection
    }

    /// WAL journaling (Core Data's default) and the pragmas of `NSSQLitePragmasOption`.
    private func applyPragmas(to connection: SQLiteConnection) throws {
        var pragmas: [String: String] = isReadOnly ? [:] : ["journal_mode": "WAL"]
        let requested = options?[NSSQLitePragmasOption]
        let entries: [(String, Any)] = (requested as? [String: Any]).map { Array($0) }
            ?? (requested as? NSDictionary).map { $0.compactMap { key, value in (key as? String).map { ($0, value) } } }
            ?? []
        for (name, value) in entries {
            guard name.allSatisfy({ $0.isLetter || $0 == "_" }) else {
                throw CoreDataError.make(NSPersistentStoreOperationError, "Invalid SQLite pragma name '\(name)'.")
            }
            pragmas[name] = "\(value)"
        }
        for (name, value) in pragmas.sorted(by: { $0.key < $1.key }) {
            let literal = Double(value) != nil ? value : "'\(value.replacingOccurrences(of: "'", with: "''"))'"
            try connection.execute("PRAGMA \(name) = \(literal)")
        }
    }

    // MARK: Inspecting files

    /// What a store file holds: its metadata, and the entity numbers and tables of its layout.
    typealias Contents = (metadata: [String: Any], layout: SQLSchema.StoredLayout)

    /// Whether a file exists and holds something. An empty file becomes a new store, and so does a
    /// SQLite database without a table: what a process killed while it created a store leaves.
    static func fileHasContent(_ url: URL) -> Bool {
        do {
            return try existingContents(url) != nil
        } catch {
            // A file that is there but is no store, or cannot be read, has content: opening it says why.
            return true
        }
    }

    /// Reads the metadata and layout of the store in a file without changing the file, or nil when
    /// the file holds no store yet (see ``fileHasContent(_:)``). Files that are not Core Data SQLite
    /// stores are refused.
    static func existingContents(_ url: URL) throws -> Contents? {
        guard fileSize(url) > 0 else { return nil }
        return try read(url, noStoreIfEmpty: true) { _, contents in contents }
    }

    /// Reads a store file's metadata, entity numbers and tables without changing the file, refusing
    /// files that are not Core Data SQLite stores.
    static func inspect(_ url: URL) throws -> Contents {
        try inspect(url) { _, contents in contents }
    }

    /// Reads a store file as ``inspect(_:)`` does, then reads more of it through the same
    /// connection with `body`, without changing the file.
    static func inspect<Result>(_ url: URL, _ body: (SQLiteConnection, Contents) throws -> Result) throws -> Result {
        guard let result = try read(url, noStoreIfEmpty: false, body) else {
            throw CoreDataError.storeOpen(url, "the file is a SQLite database without tables, not a Core Data store.")
        }
        return result
    }

    static func fileSize(_ url: URL) -> Int {
        (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
    }

    /// Reads a store file through one connection, its metadata and layout, then what `body`
    /// reads; with `noStoreIfEmpty`, a writable database without tables reads as no store (nil).
    private static func read<Result>(_ url: URL, noStoreIfEmpty: Bool, _ body: (SQLiteConnection, Contents) throws -> Result) throws -> Result? {
        try checkHeader(url)
        let sideFiles = SideFiles(of: url)
        // Only the last read-write connection to close removes the write-ahead log files; a
        // read-only one would leave them beside a store that had none. Nothing is written.
        let writable = FileManager.default.isWritableFile(atPath: url.path)
        let connection = try openForReading(url, writable: writable, sideFiles: sideFiles)
        defer { connection.close() }
        do {
            if noStoreIfEmpty, writable, try isWithoutTables(connection) {
                return nil
            }
            return try body(connection, try contents(readFrom: connection, url: url))
        } catch {
            // A refused file had no legitimate writer; leave no side files behind it.
            connection.close()
            sideFiles.removeCreated()
            throw openingError(error, url: url)
        }
    }

    /// A connection that reads a store file. Closing it leaves a write-ahead log that was there
    /// before (a migration's, or a crashed writer's) for the store's own connection to read and
    /// checkpoint: checkpointing it here would write and sync the whole database file.
    private static func openForReading(_ url: URL, writable: Bool, sideFiles: SideFiles) throws -> SQLiteConnection {
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: url.path, readOnly: !writable, create: false)
        } catch {
            sideFiles.removeCreated()
            throw openingError(error, url: url)
        }
        if sideFiles.hadWriteAheadLog {
            connection.keepWriteAheadLogOnClose()
        }
        return connection
    }

    /// Whether a database's schema is empty. The connection must be read-write, so that SQLite
    /// rolls back a creation that was cut short before counting.
    private static func isWithoutTables(_ connection: SQLiteConnection) throws -> Bool {
        try connection.scalar("SELECT COUNT(*) FROM sqlite_master") == 0
    }

    private static func contents(readFrom connection: SQLiteConnection, url: URL) throws -> Contents {
        guard try connection.schemaObjectExists("Z_METADATA"), try connection.schemaObjectExists("Z_PRIMARYKEY") else {
            throw CoreDataError.storeOpen(url, "the file is a SQLite database but not a Core Data store (it has no Z_METADATA or Z_PRIMARYKEY table).")
        }
        let metadata = try SQLMetadataTable.read(from: connection, storeType: NSSQLiteStoreType)
        var numbers: [String: Int64] = [:]
        var seen = Set<Int64>()
        let statement = try connection.statement("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY")
        while try statement.step() {
            let number = statement.int64(at: 0)
            guard (1...maximumEntityNumber).contains(number), seen.insert(number).inserted else {
                throw CoreDataError.storeOpen(url, "its Z_PRIMARYKEY table holds an invalid entity number (\(number)).")
            }
            guard let name = statement.string(at: 1), numbers.updateValue(number, forKey: name) == nil else {
                throw CoreDataError.storeOpen(url, "its Z_PRIMARYKEY table names an entity twice, or not at all.")
            }
        }
        return (metadata, try SQLSchema.StoredLayout(numbersByName: numbers, connection: connection))
    }

    /// The error for a store file that SQLite failed to open or read: damage SQLite found makes it
    /// a damaged store, another SQLite failure a store that could not be opened (134080 both);
    /// what the file system refused (no space, no permission) is reported as it is.
    static func openingError(_ error: any Error, url: URL) -> any Error {
        let error = error as NSError
        guard error.domain == NSCocoaErrorDomain, error.code == NSSQLiteError else { return error }
        let code = (error.userInfo[NSSQLiteErrorDomain] as? Int ?? 0) & 0xFF
        guard code != SQLITE_CORRUPT, code != SQLITE_NOTADB else {
            return CoreDataError.storeOpen(url, "the file is damaged or is not a SQLite database.", underlying: error)
        }
        return CoreDataError.storeOpen(url, "SQLite could not read the file (\(CoreDataError.reason(of: error))).", underlying: error)
    }

    /// The largest entity number a sound store has (Apple numbers its history tables from 16000).
    private static let maximumEntityNumber: Int64 = 65_535

    /// Refuses files that do not start with SQLite's header, before SQLite touches them.
    private static func checkHeader(_ url: URL) throws {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw CoreDataError.storeOpen(url, "the file cannot be read.")
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 100)) ?? Data()
        guard header.starts(with: Data("SQLite format 3\u{0}".utf8)) else {
            throw CoreDataError.storeOpen(url, "the file is not a SQLite database.")
        }
        guard header.count == 100 else {
            throw CoreDataError.storeOpen(url, "the file is truncated.")
        }
    }

    private static func create(_ schema: SQLSchema, metadata: [String: Any], in connection: SQLiteConnection) throws {
        try connection.transaction {
            try schema.create(in: connection, metadata: metadata, dialect: .sqlite)
        }
    }

    // MARK: Metadata without a coordinator

    static func readMetadata(at url: URL) throws -> [String: Any] {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CoreDataError.noSuchFile(url)
        }
        // Opening a store there would create one, but the file holds none yet.
        guard let contents = try existingContents(url) else {
            throw CoreDataError.storeOpen(url, "the file is empty or a SQLite database without tables, not a Core Data store.")
        }
        return contents.metadata
    }

    static func writeMetadata(_ metadata: [String: Any], at url: URL) throws {
        var merged = try readMetadata(at: url)
        metadata.forEach { merged[$0.key] = $0.value }
        let connection = try SQLiteConnection(path: url.path, readOnly: false, create: false)
        defer { connection.close() }
        try connection.transaction { try SQLMetadataTable.write(merged, to: connection) }
    }

    /// Replaces the store at `destination` with a consistent copy of the store at `source`,
    /// external data included. The copy (`VACUUM INTO`) and its external data are staged beside
    /// the destination first; the database file is then renamed over the destination's, which is
    /// atomic, after its write-ahead log files (which belong to the old database) are removed.
    static func replaceFiles(at destination: URL, withCopyOf source: URL) throws {
        _ = try inspect(source)
        let manager = FileManager.default
        let directory = destination.deletingLastPathComponent()
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        let staged = directory.appendingPathComponent(".\(destination.lastPathComponent)-\(UUID().uuidString)")
        let stagedSupport = directory.appendingPathComponent(".\(destination.lastPathComponent)-support-\(UUID().uuidString)")
        defer {
            try? manager.removeItem(at: staged)
            try? manager.removeItem(at: stagedSupport)
        }
        do {
            let connection = try SQLiteConnection(path: source.path, readOnly: true, create: false)
            defer { connection.close() }
            try connection.execute("VACUUM INTO '\(staged.path.replacingOccurrences(of: "'", with: "''"))'")
            let sourceSupport = ExternalBinaryStorage.supportDirectory(for: source)
            if manager.fileExists(atPath: sourceSupport.path) { try manager.copyItem(at: sourceSupport, to: stagedSupport) }
            for suffix in ["-wal", "-shm", "-journal"] where manager.fileExists(atPath: destination.path + suffix) {
                try manager.removeItem(atPath: destination.path + suffix)
            }
            guard rename(staged.path, destination.path) == 0 else {
                throw CoreDataError.make(NSFileWriteUnknownError, "rename failed: \(String(cString: strerror(errno)))")
            }
            let support = ExternalBinaryStorage.supportDirectory(for: destination)
            if manager.fileExists(atPath: support.path) { try manager.removeItem(at: support) }
            if manager.fileExists(atPath: stagedSupport.path) { try manager.moveItem(at: stagedSupport, to: support) }
        } catch {
            throw CoreDataError.make(NSPersistentStoreOperationError, "The store at \(destination.path) could not be replaced with \(source.path).", userInfo: [NSURLErrorKey: destination, NSUnderlyingErrorKey: error])
        }
    }

    // MARK: Access for the engine extensions

    /// Observes the SQL of every statement the store runs (tests count queries with it).
    var statementObserver: ((String) -> Void)? {
        get { connection?.statementObserver }
        set { connection?.statementObserver = newValue }
    }

    var dialect: SQLDialect { .sqlite }

    /// The most `?` parameters one statement binds, well under SQLite's limit of 32766.
    static let maximumParameters = 10_000

    func rowReader(for entities: [NSEntityDescription], schema: SQLSchema) throws -> SQLRowReader {
        try queryCache.reader(for: entities, schema: schema)
    }

    var externalData: ExternalDataReading? { externalStorage }

    /// The store's own connection, which writes and sees the latest data, and the schema.
    func writingDatabase() throws -> (SQLiteConnection, SQLSchema) {
        guard let connection, let schema else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "The store at \(url?.path ?? "?") is not open.")
        }
        return (connection, schema)
    }

    var external: ExternalBinaryStorage { externalStorage }

}

/// The WAL side files of a database (`-wal`, `-shm`). A read-only connection to a WAL database
/// creates them and cannot remove them when it closes; a file that inspection refuses must be left
/// as it was found, so the side files that did not exist before are removed. (For a sound store
/// they stay: another connection may be using them.)
private struct SideFiles {
    private let created: [String]
    let hadWriteAheadLog: Bool

    init(of url: URL) {
        created = ["-wal", "-shm"].map { url.path + $0 }.filter { !FileManager.default.fileExists(atPath: $0) }
        hadWriteAheadLog = !created.contains(url.path + "-wal")
    }

    func removeCreated() {
        for path in created {
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}

extension SQLiteStore: PersistentHistoryStoring {}
