@testable import CoreData
@testable import CoreDataCrashWriter
import Testing

/// Checks of a crash-test store's files that the public API cannot make: SQLite's integrity check,
/// rows referring to rows that exist, primary-key counters ahead of every key, and external data
/// files that exist for every row referring to one, and none that no row refers to (a writer
/// killed between writing a file and committing, or between committing and removing a replaced
/// file, leaves one behind, which reopening the store collects).
enum CrashStoreInvariants {
    /// References from a column to the primary keys of a table, in the layout `CrashModel` has.
    private static let references: [(table: String, column: String, target: String)] = [
        ("ZITEM", "ZBATCH", "ZBATCH"),
        ("ZBATCH", "ZTAG", "ZTAG"),
        ("ZTAG", "ZBATCH", "ZBATCH"),
        ("Z_2TAGS", "Z_2ITEMS", "ZITEM"),
        ("Z_2TAGS", "Z_3TAGS", "ZTAG"),
    ]

    /// Records an issue for each broken invariant of the store at `url`, which holds `state`;
    /// returns the names of the external files no row refers to.
    @discardableResult
    static func check(_ url: URL, holding state: CrashStoreState, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let integrity = try RawStoreSQL.rows(url, "PRAGMA integrity_check").compactMap(\.first?.text)
        #expect(integrity == ["ok"], "SQLite's integrity check", sourceLocation: sourceLocation)
        for reference in references {
            let dangling = try RawStoreSQL.value(url, "SELECT COUNT(*) FROM \(reference.table) WHERE \(reference.column) IS NOT NULL AND \(reference.column) NOT IN (SELECT Z_PK FROM \(reference.target))")
            #expect(dangling?.integer == 0, "\(reference.table).\(reference.column) refers to missing \(reference.target) rows", sourceLocation: sourceLocation)
        }
        for counter in try RawStoreSQL.rows(url, "SELECT Z_ENT, Z_NAME, Z_MAX FROM Z_PRIMARYKEY") {
            let (entity, name, maximum) = (counter[0].integer ?? 0, counter[1].text ?? "", counter[2].integer ?? 0)
            let largest = try RawStoreSQL.value(url, "SELECT MAX(Z_PK) FROM Z\(name.uppercased()) WHERE Z_ENT = \(entity)")?.integer ?? 0
            #expect(maximum >= largest, "Z_PRIMARYKEY.Z_MAX of \(name) is \(maximum), below its key \(largest)", sourceLocation: sourceLocation)
        }
        return try checkExternalFiles(url, holding: state, sourceLocation: sourceLocation)
    }

    /// Every large attachment is in a file of its own that exists; returns the files no row refers to.
    private static func checkExternalFiles(_ url: URL, holding state: CrashStoreState, sourceLocation: SourceLocation) throws -> [String] {
        let storage = ExternalBinaryStorage(storeURL: url)
        let columns = try RawStoreSQL.rows(url, "SELECT ZATTACHMENT FROM ZITEM WHERE ZATTACHMENT IS NOT NULL").compactMap(\.first?.blob)
        let referenced = columns.compactMap(storage.referencedFile).map(\.lastPathComponent)
        #expect(referenced.count == state.largeAttachmentCount, "every large attachment lives in a file", sourceLocation: sourceLocation)
        #expect(Set(referenced).count == referenced.count, "no two rows share a file", sourceLocation: sourceLocation)
        let present = Set((try? FileManager.default.contentsOfDirectory(atPath: storage.directory.path)) ?? [])
        let missing = Set(referenced).subtracting(present)
        #expect(missing.isEmpty, "external files that rows refer to are missing: \(missing.sorted())", sourceLocation: sourceLocation)
        let orphaned = present.subtracting(referenced).sorted()
        #expect(orphaned.isEmpty, "external files no row refers to: \(orphaned)", sourceLocation: sourceLocation)
        return orphaned
    }
}
