import BenchSQLite

extension RawSQLitePeers {
    /// W4a raw: ``ScoredItemTable/countAllSQL``, `SELECT COUNT(*)` without a condition.
    static var countAll: Peer {
        countPeer { _ in (ScoredItemTable.countAllSQL, []) }
    }

    /// W4b raw: the count of the indexed `BETWEEN`.
    static var countByScore: Peer {
        countPeer { count in
            let range = ScoredItemTable.scoreRange(count: count)
            return (ScoredItemTable.countByScoreSQL, [range.lowerBound, range.upperBound])
        }
    }

    /// W4c raw: the count of the unindexed `BETWEEN`.
    static var countByUnindexedScore: Peer {
        countPeer { count in
            let range = ScoredItemTable.scoreRange(count: count)
            return (ScoredItemTable.countByUnindexedScoreSQL, [range.lowerBound, range.upperBound])
        }
    }

    /// A W4 peer: the statement prepared once, then stepped and reset ``Workload/w4CountsPerRun``
    /// times; returns the sum of the counts. Set-up (not measured): open the connection.
    private static func countPeer(
        named name: String = "raw", query: @escaping (_ count: Int) -> (sql: String, bindings: [Any])
    ) -> Peer {
        Peer(name: name, family: .raw) { input in
            let connection = try SQLiteConnection(path: input.storeURL.path, settings: input.settings)
            let (sql, bindings) = query(input.count)
            return PreparedRun(
                body: {
                    let statement = try connection.prepare(sql)
                    try bind(bindings, to: statement)
                    var total: Int64 = 0
                    for _ in 0..<Workload.w4CountsPerRun {
                        guard try statement.step() else {
                            throw BenchmarkError.unexpectedValue(peer: name, detail: "\(sql) returned no row")
                        }
                        total += sqlite3_column_int64(statement.handle, 0)
                        sqlite3_reset(statement.handle)
                    }
                    return total
                },
                tearDown: { connection.close() })
        }
    }
}
