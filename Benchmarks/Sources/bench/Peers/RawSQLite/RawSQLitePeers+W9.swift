import BenchSQLite

extension RawSQLitePeers {
    /// W9 raw: a cursor over ``ScoredItemTable/selectAllSQL`` (the statement our store runs to load
    /// every row), reading the score of each row and materializing nothing.
    ///
    /// Set-up (not measured): open the connection on the fixture copy, apply the pragmas.
    static var iterateScores: Peer {
        Peer(name: "raw", family: .raw) { input in
            let connection = try SQLiteConnection(path: input.storeURL.path, settings: input.settings)
            return PreparedRun(
                body: {
                    let statement = try connection.prepare(ScoredItemTable.selectAllSQL)
                    var sum: Int64 = 0
                    while try statement.step() {
                        sum &+= sqlite3_column_int64(statement.handle, ScoredItem.scoreColumn)
                    }
                    return sum
                },
                tearDown: { connection.close() })
        }
    }
}
