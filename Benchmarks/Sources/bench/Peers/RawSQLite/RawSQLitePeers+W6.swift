import BenchSQLite
import Foundation

extension RawSQLitePeers {
    /// One row of W6's sorted query as the raw peer materializes it: an object's key and the name
    /// of its section.
    struct SectionedRow {
        var primaryKey: Int64
        var section: String

        /// The row `statement` is on, selected by ``SectionedItemTable/selectSectionedSQL``.
        init(row statement: OpaquePointer) {
            primaryKey = sqlite3_column_int64(statement, 0)
            section = sqlite3_column_text(statement, 1).map { String(cString: $0) } ?? ""
        }
    }

    /// W6a raw: what a fetched results controller's initial fetch needs, in the two queries spec
    /// §7.2 names: every object's key and section name in the controller's order
    /// (``SectionedItemTable/selectSectionedSQL``, a sort of the whole table), materialized as
    /// ``SectionedRow``s, then the section names and sizes
    /// (``SectionedItemTable/countSectionsSQL``). Returns ``SectionedItemTable/sectionChecksum(sizes:)``
    /// of the sizes; fails if they do not add up to the rows.
    ///
    /// Set-up (not measured): open the connection on the fixture copy, apply the pragmas. The
    /// statements are prepared in the measured body, as our store prepares its own.
    static var fetchSections: Peer {
        Peer(name: "raw", family: .raw) { input in
            let connection = try SQLiteConnection(path: input.storeURL.path, settings: input.settings)
            return PreparedRun(
                body: {
                    let rows = try sectionedRows(from: connection)
                    let sections = try sectionSizes(from: connection)
                    let total = sections.reduce(0) { $0 + $1.size }
                    guard total == rows.count else {
                        throw BenchmarkError.unexpectedValue(peer: "raw", detail: "\(rows.count) rows in sections of \(total)")
                    }
                    return SectionedItemTable.sectionChecksum(sizes: sections.lazy.map(\.size))
                },
                tearDown: { connection.close() })
        }
    }

    /// Every row of ``SectionedItemTable/selectSectionedSQL``, materialized.
    private static func sectionedRows(from connection: SQLiteConnection) throws -> [SectionedRow] {
        let statement = try connection.prepare(SectionedItemTable.selectSectionedSQL)
        var rows: [SectionedRow] = []
        while try statement.step() {
            rows.append(SectionedRow(row: statement.handle))
        }
        return rows
    }

    /// The section names and sizes of ``SectionedItemTable/countSectionsSQL``, in order.
    private static func sectionSizes(from connection: SQLiteConnection) throws -> [(name: String, size: Int)] {
        let statement = try connection.prepare(SectionedItemTable.countSectionsSQL)
        var sections: [(name: String, size: Int)] = []
        while try statement.step() {
            let name = sqlite3_column_text(statement.handle, 0).map { String(cString: $0) } ?? ""
            sections.append((name, Int(sqlite3_column_int64(statement.handle, 1))))
        }
        return sections
    }

    /// The entity number the raw fixture builder writes in `Z_ENT` (the model's only entity).
    static let sectionedItemEntityNumber: Int64 = 1

    /// Creates W6's table as our store lays it out and fills it with the rows of
    /// ``SectionedItemTable/values(at:count:)``, in one transaction. The fixture builder used when
    /// our Core Data is not compiled in.
    static func createSectionedItemStore(at url: URL, count: Int, settings: StoreSettings) throws {
        let connection = try SQLiteConnection(path: url.path, settings: settings)
        defer { connection.close() }
        try connection.execute(SectionedItemTable.createSQL)
        try connection.execute("BEGIN")
        let statement = try connection.prepare(SectionedItemTable.insertSQL)
        let handle = statement.handle
        for index in 0..<count {
            let values = SectionedItemTable.values(at: index, count: count)
            sqlite3_bind_int64(handle, 1, Int64(index + 1))
            sqlite3_bind_int64(handle, 2, sectionedItemEntityNumber)
            sqlite3_bind_int64(handle, 3, 1)
            sqlite3_bind_int64(handle, 4, values.score)
            sqlite3_bind_text(handle, 5, SectionedItemTable.sectionName(values.section), -1, sqliteTransient)
            sqlite3_bind_int64(handle, 6, values.serial)
            try connection.check(sqlite3_step(handle), sql: SectionedItemTable.insertSQL)
            sqlite3_reset(handle)
        }
        try connection.execute("COMMIT")
    }
}
