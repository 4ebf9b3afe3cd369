import BenchSQLite

extension RawSQLitePeers {
    /// One row of `ZITEM` as the raw peer materializes it.
    struct Item {
        var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int64

        /// The sum of the ten attributes.
        var sum: Int64 {
            i0 &+ i1 &+ i2 &+ i3 &+ i4 &+ i5 &+ i6 &+ i7 &+ i8 &+ i9
        }
    }

    /// W2 raw: a step loop over `SELECT ZI0 … ZI9 FROM ZITEM` building an array of structs, then the
    /// sum of every attribute.
    ///
    /// Set-up (not measured): open the connection on the fixture copy, apply the pragmas.
    static var fetchItems: Peer {
        Peer(name: "raw", family: .raw) { input in
            let connection = try SQLiteConnection(path: input.storeURL.path, settings: input.settings)
            return PreparedRun(
                body: { try fetchItems(from: connection).reduce(0) { $0 &+ $1.sum } },
                tearDown: { connection.close() })
        }
    }

    /// Every item of `ZITEM`, decoded by column index.
    static func fetchItems(from connection: SQLiteConnection) throws -> [Item] {
        let statement = try connection.prepare(ItemTable.selectAttributesSQL)
        let row = statement.handle
        var items: [Item] = []
        while try statement.step() {
            items.append(Item(
                i0: sqlite3_column_int64(row, 0), i1: sqlite3_column_int64(row, 1),
                i2: sqlite3_column_int64(row, 2), i3: sqlite3_column_int64(row, 3),
                i4: sqlite3_column_int64(row, 4), i5: sqlite3_column_int64(row, 5),
                i6: sqlite3_column_int64(row, 6), i7: sqlite3_column_int64(row, 7),
                i8: sqlite3_column_int64(row, 8), i9: sqlite3_column_int64(row, 9)))
        }
        return items
    }
}
