@testable import CoreData
import Testing

// Helpers shared by the SQLite store suites (and the model suites that open stores). Every name
// is prefixed or namespaced so that it cannot collide with other suites of the test target.

/// A fresh directory under the system temporary directory; `remove()` deletes it.
struct SQLiteScratchDirectory {
    let url: URL

    init(_ label: String = "sqlite") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("cd-\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// The names of the entries of the directory (hidden ones included), sorted.
    func listing() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }
}

/// A coordinator with one SQLite store (or a store of another type at a URL), and a
/// private-queue context on it.
struct SQLiteTestStack {
    let coordinator: NSPersistentStoreCoordinator
    let store: NSPersistentStore
    let context: NSManagedObjectContext

    init(model: NSManagedObjectModel, url: URL, configuration: String? = nil, options: [AnyHashable: Any]? = nil, storeType: String = NSSQLiteStoreType) throws {
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        store = try coordinator.addPersistentStore(ofType: storeType, configurationName: configuration, at: url, options: options)
        context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
    }

    /// Closes the store (SQLite checkpoints the WAL into the main file when the last connection closes).
    func close() {
        for store in coordinator.persistentStores {
            try? coordinator.remove(store)
        }
    }
}

/// Raw access to a store file through the library's internal SQLite connection, read-only.
enum RawStoreSQL {
    /// Every row of a query, as SQL values.
    static func rows(_ url: URL, _ sql: String) throws -> [[SQLValue]] {
        let connection = try SQLiteConnection(path: url.path, readOnly: true, create: false)
        defer { connection.close() }
        let statement = try connection.statement(sql)
        var rows: [[SQLValue]] = []
        let count = sqlite3ColumnCount(statement)
        while try statement.step() {
            rows.append((0..<count).map { statement.value(at: Int32($0)) })
        }
        return rows
    }

    /// The single value of a query, or nil when it returns no row.
    static func value(_ url: URL, _ sql: String) throws -> SQLValue? {
        try rows(url, sql).first?.first
    }

    /// The names of the tables (sqlite_master type 'table'), sorted, SQLite's own excluded.
    static func tables(_ url: URL) throws -> [String] {
        try rows(url, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").compactMap(\.first?.text)
    }

    /// The names of the explicitly created indexes, sorted.
    static func indexes(_ url: URL) throws -> [String] {
        try rows(url, "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex_%' ORDER BY name").compactMap(\.first?.text)
    }

    /// The columns of an index, in index order.
    static func indexColumns(_ url: URL, _ index: String) throws -> [String] {
        try rows(url, "SELECT name FROM pragma_index_info('\(index)') ORDER BY seqno").compactMap(\.first?.text)
    }

    /// The table an index belongs to.
    static func indexTable(_ url: URL, _ index: String) throws -> String? {
        try value(url, "SELECT tbl_name FROM sqlite_master WHERE type = 'index' AND name = '\(index)'")?.text
    }

    /// The columns of a table in declaration order: name, declared type, primary-key position.
    static func columns(_ url: URL, _ table: String) throws -> [(name: String, type: String, pk: Int64)] {
        try rows(url, "SELECT name, type, pk FROM pragma_table_info('\(table)') ORDER BY cid").map { row in
            (row[0].text ?? "", row[1].text ?? "", row[2].integer ?? 0)
        }
    }

    private static func sqlite3ColumnCount(_ statement: SQLiteStatement) -> Int {
        // The internal statement API has no column-count accessor, and these tests only import
        // CoreData, so count the top-level commas of the select list (queries here never use `*`).
        let sql = statement.sql.uppercased()
        guard let select = sql.range(of: "SELECT "), let from = sql.range(of: " FROM ", range: select.upperBound..<sql.endIndex) else { return 1 }
        var depth = 0
        var count = 1
        for character in sql[select.upperBound..<from.lowerBound] {
            switch character {
            case "(": depth += 1
            case ")": depth -= 1
            case "," where depth == 0: count += 1
            default: break
            }
        }
        return count
    }
}

extension SQLValue {
    var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    var integer: Int64? {
        if case .integer(let integer) = self { return integer }
        return nil
    }

    var real: Double? {
        if case .real(let real) = self { return real }
        return nil
    }

    var blob: Data? {
        if case .blob(let blob) = self { return blob }
        return nil
    }

    var isNull: Bool {
        self == .null
    }
}

/// File-level helpers.
enum StoreFileProbe {
    /// The bytes of a file, or nil when it does not exist.
    static func bytes(_ url: URL) -> Data? {
        try? Data(contentsOf: url)
    }

    static func exists(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.path)
    }

    static func size(_ url: URL) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
    }

    static func sidecar(_ url: URL, _ suffix: String) -> URL {
        URL(fileURLWithPath: url.path + suffix)
    }
}

/// Small builders for models written in code.
enum ModelFixtureKit {
    static func entity(_ name: String, abstract: Bool = false, _ properties: [NSPropertyDescription] = []) -> NSEntityDescription {
        let entity = NSEntityDescription()
        entity.name = name
        entity.isAbstract = abstract
        entity.properties = properties
        return entity
    }

    static func attribute(_ name: String, _ type: NSAttributeType, optional: Bool = true, transient: Bool = false) -> NSAttributeDescription {
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        attribute.isOptional = optional
        attribute.isTransient = transient
        return attribute
    }

    /// A relationship; `maxCount` 1 makes it to-one, 0 unbounded to-many.
    static func relationship(_ name: String, to destination: NSEntityDescription?, maxCount: Int, minCount: Int = 0, optional: Bool = true, ordered: Bool = false, deleteRule: NSDeleteRule = .nullifyDeleteRule) -> NSRelationshipDescription {
        let relationship = NSRelationshipDescription()
        relationship.name = name
        relationship.destinationEntity = destination
        relationship.maxCount = maxCount
        relationship.minCount = minCount
        relationship.isOptional = optional
        relationship.isOrdered = ordered
        relationship.deleteRule = deleteRule
        return relationship
    }

    static func inverse(_ lhs: NSRelationshipDescription, _ rhs: NSRelationshipDescription) {
        lhs.inverseRelationship = rhs
        rhs.inverseRelationship = lhs
    }

    static func model(_ entities: [NSEntityDescription]) -> NSManagedObjectModel {
        let model = NSManagedObjectModel()
        model.entities = entities
        return model
    }
}

/// Whether a value's dynamic type is exactly `T` or a subclass of it, without Swift bridging
/// (an `Int` is not an `NSNumber` here).
func valueIsInstance<T>(_ value: Any?, of type: T.Type) -> Bool {
    guard let value else { return false }
    return Swift.type(of: value) is T.Type
}
