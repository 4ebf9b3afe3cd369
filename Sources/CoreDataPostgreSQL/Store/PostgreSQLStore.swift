import CoreData
import Logging

/// The PostgreSQL store (`NSPostgreSQLStoreType`): Apple's relational layout — one table per
/// inheritance root with `Z_PK`, `Z_ENT` and `Z_OPT`, join tables, `Z_PRIMARYKEY` and
/// `Z_METADATA` with the model's version hashes — in a PostgreSQL database, which several
/// coordinators in several processes on several machines use at once.
///
/// Fetches compile to SQL with the same compiler as the SQLite store's (`SQLDialect.postgreSQL`),
/// every value bound as a parameter. A save is one transaction with optimistic locking on
/// `Z_OPT`; primary keys come in blocks reserved from `Z_PRIMARYKEY`, so that saves of several
/// coordinators do not wait for each other.
// Used only under its coordinator's lock, like every store.
final class PostgreSQLStore: NSPersistentStore, RelationalStore, @unchecked Sendable {
    private(set) var connection: PostgreSQLConnection?
    private(set) var schema: SQLSchema?
    private let readers = SQLRowReaderCache()
    var keyBlocks = PrimaryKeyBlocks()
    /// The metadata a save in progress writes, kept as the store's once it commits.
    var pendingMetadata: [String: Any]?
    /// The permanent IDs a save in progress gave its new objects, by temporary ID, which its
    /// conflict rounds give them again.
    var savePermanentIDs: [NSManagedObjectID: NSManagedObjectID] = [:]
    /// Reports commits while the coordinator posts remote-change notifications.
    private var commitListener: PostgreSQLCommitListener?
    /// The query generation a pinned context is reading through, while it reads.
    var pinnedRead: SQLReadSnapshot<PostgreSQLConnection>?
    /// Whether saves record persistent history (`NSPersistentHistoryTrackingKey`).
    var tracksHistory = false

    /// The channel each save notifies, which commit listeners listen on: named after the UUID
    /// the store had when it was loaded, which every coordinator of the store reads alike.
    private(set) var commitChannel = ""

    override var type: String {
        NSPostgreSQLStoreType
    }

    var dialect: SQLDialect { .postgreSQL }

    /// Well under PostgreSQL's limit of 65,535 parameters.
    static let maximumParameters = 10_000

    var externalData: (any ExternalDataReading)? { nil }

    var compilesSubfetches: Bool { true }

    override class func metadataForPersistentStore(with url: URL) throws -> [String: Any] {
        try metadata(at: url, options: nil)
    }

    override class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreAt url: URL) throws {
        try setMetadata(metadata ?? [:], at: url, options: nil)
    }

    /// The metadata of the store in the schema `options` name (`NSPostgreSQLSchemaOption`).
    static func metadata(at url: URL, options: [AnyHashable: Any]?) throws -> [String: Any] {
        try withConnection(to: PostgreSQLServerAddress(url: url, options: options)) { try requiredMetadata(in: $0, url: url) }
    }

    /// Writes metadata into the store of the schema `options` name, in one transaction.
    static func setMetadata(_ metadata: [String: Any], at url: URL, options: [AnyHashable: Any]?) throws {
        try withConnection(to: PostgreSQLServerAddress(url: url, options: options)) { connection in
            try connection.transaction {
                var merged = try requiredMetadata(in: connection, url: url)
                metadata.forEach { merged[$0.key] = $0.value }
                try SQLMetadataTable.write(merged, to: connection)
            }
        }
    }

    /// Drops the schema `options` name (`NSPostgreSQLSchemaOption`), and the store's tables and
    /// functions with it. A store in the database's default schema is refused, since that
    /// schema may hold tables that are not the store's.
    static func destroyStore(at url: URL, options: [AnyHashable: Any]?) throws {
        let address = try PostgreSQLServerAddress(url: url, options: options)
        guard let schema = address.schema.flatMap(PostgreSQLIdentifier.quoted) else {
            throw CoreDataError.make(
                NSPersistentStoreOperationError,
                "Only a PostgreSQL store in a schema of its own (NSPostgreSQLSchemaOption) can be destroyed; drop the tables of a store in the default schema yourself.",
                userInfo: [NSURLErrorKey: url]
            )
        }
        try withConnection(to: address) { try $0.execute("DROP SCHEMA IF EXISTS \(schema) CASCADE") }
    }

    /// Replaces the store in the schema `destinationOptions` name with a copy of the store in the
    /// schema `sourceOptions` name, in the same database, in one transaction: the destination's
    /// schema is made again with a copy of each of the source's tables (their indexes and
    /// constraints included) and the store's functions, under the lock servers opening the
    /// destination take. The source is left as it was; a store opened on the destination must be
    /// removed from its coordinator first.
    static func replaceStore(at destination: URL, options destinationOptions: [AnyHashable: Any]?, withCopyOf source: URL, options sourceOptions: [AnyHashable: Any]?) throws {
        let target = try PostgreSQLServerAddress(url: destination, options: destinationOptions)
        let origin = try PostgreSQLServerAddress(url: source, options: sourceOptions)
        guard let targetSchema = target.schema, let quotedTarget = PostgreSQLIdentifier.quoted(targetSchema),
              let quotedOrigin = origin.schema.flatMap(PostgreSQLIdentifier.quoted)
        else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "Only PostgreSQL stores in schemas of their own (NSPostgreSQLSchemaOption) can replace each other.", userInfo: [NSURLErrorKey: destination])
        }
        guard target.isSameDatabase(as: origin) else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "A PostgreSQL store can only be replaced with a store of the same database.", userInfo: [NSURLErrorKey: destination])
        }
        guard targetSchema != origin.schema else { return }
        try withConnection(to: origin) { connection in
            _ = try requiredMetadata(in: connection, url: source)
            try connection.transaction {
                let lock = try connection.statement("SELECT pg_advisory_xact_lock(hashtext(?))")
                lock.bind(.text(targetSchema), at: 1)
                _ = try lock.readFirstRow { _ in () }
                try connection.execute("DROP SCHEMA IF EXISTS \(quotedTarget) CASCADE")
                try connection.execute("CREATE SCHEMA \(quotedTarget)")
                for table in try tables(in: connection) {
                    try connection.execute("CREATE TABLE \(quotedTarget).\(table) (LIKE \(quotedOrigin).\(table) INCLUDING ALL)")
                    try connection.execute("INSERT INTO \(quotedTarget).\(table) SELECT * FROM \(quotedOrigin).\(table)")
                }
                try connection.execute("SET LOCAL search_path TO \(quotedTarget)")
                try connection.execute(PostgreSQLFunctions.definitions)
            }
        }
    }

    /// The tables of the connection's schema, quoted.
    private static func tables(in connection: PostgreSQLConnection) throws -> [String] {
        let statement = try connection.statement("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename")
        var tables: [String] = []
        while try statement.step() {
            guard let name = statement.string(at: 0), let quoted = PostgreSQLIdentifier.quoted(name) else {
                throw CoreDataError.make(NSPersistentStoreOperationError, "The PostgreSQL store's schema holds a table whose name this store does not make: \(statement.string(at: 0) ?? "?").")
            }
            tables.append(quoted)
        }
        return tables
    }

    /// Runs `body` with a connection of its own to a store's address, for the class methods that
    /// need no coordinator.
    private static func withConnection<Result>(to address: PostgreSQLServerAddress, _ body: (PostgreSQLConnection) throws -> Result) throws -> Result {
        let connection = try PostgreSQLConnection(address: address)
        defer { connection.close() }
        return try body(connection)
    }

    /// The metadata of the store a connection's schema holds.
    ///
    /// - Throws: `NSPersistentStoreOpenError` (134080) when it holds none.
    private static func requiredMetadata(in connection: PostgreSQLConnection, url: URL) throws -> [String: Any] {
        guard let metadata = try PostgreSQLSchemaInstaller.existingMetadata(in: connection) else {
            let place = connection.address.schema.map { "the schema \($0) of the database" } ?? "the database"
            throw CoreDataError.storeOpen(url, "\(place) has no Core Data store.")
        }
        return metadata
    }

    // MARK: Loading

    func load(model: NSManagedObjectModel) throws {
        let connection = try PostgreSQLConnection(address: try PostgreSQLServerAddress(url: url, options: options))
        let installed = try PostgreSQLSchemaInstaller(store: self, model: model, connection: connection).install()
        self.connection = connection
        schema = installed.schema
        storedMetadata = installed.metadata
        identifier = installed.metadata[NSStoreUUIDKey] as? String
        commitChannel = PostgreSQLCommitListener.channel(ofStore: identifier ?? "")
        metadataChanged = installed.recordsModelHashes
        try prepareHistory(fileRecordsHistory: StoreMetadata.recordsHistory(installed.metadata))
    }

    func unload() {
        commitListener?.stop()
        commitListener = nil
        readers.removeAll()
        connection?.close()
        connection = nil
    }

    /// Listens for the commits of every coordinator of the store, on every server.
    func observeCommits(_ onCommit: @escaping @Sendable () -> Void) {
        commitListener?.stop()
        guard let address = connection?.address else { return }
        do {
            commitListener = try PostgreSQLCommitListener(address: address, channel: commitChannel, onCommit: onCommit)
        } catch {
            commitListener = nil
            Logger(label: "CoreDataPostgreSQL.store").warning("Remote change notifications are off: \(PostgreSQLErrors.reason(of: error))")
        }
    }

    // MARK: Access for the extensions

    func writingDatabase() throws -> (PostgreSQLConnection, SQLSchema) {
        guard let connection, let schema else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "The PostgreSQL store at \(url?.absoluteString ?? "?") is not open.")
        }
        return (connection, schema)
    }

    func rowReader(for entities: [NSEntityDescription], schema: SQLSchema) throws -> SQLRowReader {
        try readers.reader(for: entities, schema: schema)
    }
}

extension PostgreSQLStore: PersistentHistoryStoring, StoreLocatedByOptions {}
