/// A store that keeps Apple's relational layout (`SQLSchema`) in a SQL database: the SQLite
/// store, and the stores of other databases built on this module. Reading is one
/// implementation for all of them (`RelationalStore+Fetching`, `RelationalStore+Dictionaries`),
/// through the store's connection, the one SQL compiler and the store's dialect.
package protocol RelationalStore: BatchRequestExecuting {
    associatedtype Database: SQLDatabase

    /// How the store's database spells what databases disagree on.
    var dialect: SQLDialect { get }

    /// The connection that writes and sees the latest data, and the schema.
    func writingDatabase() throws -> (Database, SQLSchema)

    /// How to read the rows of a set of entities (cached by the store).
    func rowReader(for entities: [NSEntityDescription], schema: SQLSchema) throws -> SQLRowReader

    /// The query generation a pinned context is reading through, while it reads.
    var pinnedRead: SQLReadSnapshot<Database>? { get set }

    /// The files binary data stored outside the database lives in, when the store keeps any.
    var externalData: ExternalDataReading? { get }

    /// The most `?` parameters one statement binds.
    static var maximumParameters: Int { get }

    /// Whether saves and batch requests record persistent history (`NSPersistentHistoryTrackingKey`).
    var tracksHistory: Bool { get set }

    /// The column value of an attribute's value that a batch request or persistent history
    /// writes; binary data the store keeps in a file of its own is written to it, and the file
    /// noted in `files`.
    func encode(_ value: Any?, attribute: NSAttributeDescription, files: inout ExternalFileChanges) throws -> SQLValue

    // MARK: Batch requests

    /// The most rows one `INSERT` of a batch insert writes.
    static var rowsPerInsert: Int { get }

    /// Runs a batch request's statements in one transaction of the writing connection, which
    /// commits when `body` returns and rolls back when it throws; the store removes the files
    /// a failed request wrote, and lets other coordinators know of the commit.
    func batchTransaction<Result>(_ body: (Database, inout ExternalFileChanges) throws -> Result) throws -> Result

    /// The primary keys of up to `count` new rows of an entity, for a batch insert; taken before
    /// its transaction begins.
    func batchPrimaryKeys(count: Int, of entity: NSEntityDescription) throws -> any PrimaryKeySource
}

/// Reads binary data whose column holds a reference to a file rather than the data itself.
package protocol ExternalDataReading {
    /// The value of a column of an attribute that allows external storage: the data, or a
    /// reference that loads it from its file when read.
    func decode(_ column: Data) -> Any
}
