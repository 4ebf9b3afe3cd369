import BenchSQLite
import Foundation

extension RawSQLitePeers {
    /// One row of `ZPARENT` as the raw W5 peers materialize it.
    struct Parent {
        var primaryKey, entity, version, rank: Int64

        /// The row `statement` is on, selected with ``ParentChildTable/parentSelectList``.
        init(row statement: OpaquePointer) {
            primaryKey = sqlite3_column_int64(statement, 0)
            entity = sqlite3_column_int64(statement, 1)
            version = sqlite3_column_int64(statement, 2)
            rank = sqlite3_column_int64(statement, 3)
        }
    }

    /// One row of `ZCHILD` as the raw W5 peers materialize it.
    struct Child {
        var primaryKey, entity, version, parent, serial, weight: Int64

        /// The row `statement` is on, selected with ``ParentChildTable/childSelectList``.
        init(row statement: OpaquePointer) {
            primaryKey = sqlite3_column_int64(statement, 0)
            entity = sqlite3_column_int64(statement, 1)
            version = sqlite3_column_int64(statement, 2)
            serial = sqlite3_column_int64(statement, 3)
            weight = sqlite3_column_int64(statement, 4)
            parent = sqlite3_column_int64(statement, 5)
        }
    }

    /// Every parent row, materialized.
    static func fetchParents(from connection: SQLiteConnection) throws -> [Parent] {
        let statement = try connection.prepare(ParentChildTable.selectParentsSQL)
        var parents: [Parent] = []
        while try statement.step() {
            parents.append(Parent(row: statement.handle))
        }
        return parents
    }

    /// The entity numbers the raw fixture builder writes in `Z_ENT`, as our store numbers the
    /// entities (alphabetically: `Child` 1, `Parent` 2).
    static let childEntityNumber: Int64 = 1
    static let parentEntityNumber: Int64 = 2

    /// Creates W5's tables and foreign-key index as our store lays them out and fills them with
    /// the rows of ``ParentChildTable`` for `count` children, in one transaction. The fixture
    /// builder used when our Core Data is not compiled in.
    static func createParentChildStore(at url: URL, count: Int, settings: StoreSettings) throws {
        let connection = try SQLiteConnection(path: url.path, settings: settings)
        defer { connection.close() }
        try connection.execute(ParentChildTable.createSQL)
        try connection.execute("BEGIN")
        let parents = ParentChildTable.parentCount(count: count)
        let insertParent = try connection.prepare(ParentChildTable.insertParentSQL)
        for index in 0..<parents {
            try insertRow(insertParent, [Int64(index + 1), parentEntityNumber, 1, ParentChildTable.parentRank(at: index)])
        }
        let insertChild = try connection.prepare(ParentChildTable.insertChildSQL)
        for index in 0..<ParentChildTable.childCount(count: count) {
            let values = ParentChildTable.childValues(at: index, parents: parents)
            try insertRow(insertChild, [Int64(index + 1), childEntityNumber, 1, Int64(values.parent + 1), values.serial, values.weight])
        }
        try connection.execute("COMMIT")
    }

    /// Binds integers to a prepared INSERT, runs it and resets it.
    private static func insertRow(_ statement: SQLiteStatement, _ values: [Int64]) throws {
        for (offset, value) in values.enumerated() {
            sqlite3_bind_int64(statement.handle, Int32(offset + 1), value)
        }
        _ = try statement.step()
        sqlite3_reset(statement.handle)
    }
}
