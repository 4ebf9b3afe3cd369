import BenchSQLite

extension RawSQLitePeers {
    /// W7a raw: ``ScoredItemTable/batchUpdateSQL`` with the bound of 10% of the rows, in one
    /// transaction; returns `sqlite3_changes`.
    static var batchUpdateFlags: Peer {
        batchPeer(ScoredItemTable.batchUpdateSQL)
    }

    /// W7b raw: ``ScoredItemTable/batchDeleteSQL`` with the same bound, in one transaction.
    static var batchDeleteItems: Peer {
        batchPeer(ScoredItemTable.batchDeleteSQL)
    }

    /// A W7 peer running `sql` once, bound to ``ScoredItemTable/batchScoreBound(count:)``, between
    /// `BEGIN` and `COMMIT`. Set-up (not measured): open the connection on the fixture copy.
    private static func batchPeer(_ sql: String) -> Peer {
        Peer(name: "raw", family: .raw) { input in
            let connection = try SQLiteConnection(path: input.storeURL.path, settings: input.settings)
            return PreparedRun(
                body: {
                    try connection.execute("BEGIN")
                    let statement = try connection.prepare(sql)
                    try bind([ScoredItemTable.batchScoreBound(count: input.count)], to: statement)
                    _ = try statement.step()
                    try connection.execute("COMMIT")
                    return Int64(sqlite3_changes(connection.handle))
                },
                tearDown: { connection.close() })
        }
    }
}
