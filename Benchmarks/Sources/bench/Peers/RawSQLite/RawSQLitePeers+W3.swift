extension RawSQLitePeers {
    /// W3a raw: ``ScoredItemTable/selectByScoreSQL`` (the indexed `BETWEEN`), every row materialized
    /// as a ``ScoredItem``, then the sum of the scores.
    static var fetchByScore: Peer {
        fetchPeer { count in
            let range = ScoredItemTable.scoreRange(count: count)
            return (ScoredItemTable.selectByScoreSQL, [range.lowerBound, range.upperBound])
        }
    }

    /// W3b raw: the same `BETWEEN` on the unindexed column (a full scan).
    static var fetchByUnindexedScore: Peer {
        fetchPeer { count in
            let range = ScoredItemTable.scoreRange(count: count)
            return (ScoredItemTable.selectByUnindexedScoreSQL, [range.lowerBound, range.upperBound])
        }
    }

    /// W3c raw: the first 50 rows by `created` whose name is `LIKE 'cd%'`.
    static var fetchByPrefix: Peer {
        fetchPeer { _ in (ScoredItemTable.selectByPrefixSQL, [ScoredItemTable.namePrefix + "%"]) }
    }

    /// A W3 peer running `query(count)`. Set-up (not measured): open the connection on the fixture
    /// copy, apply the pragmas. The statement is prepared in the measured body, as our store does
    /// on its first fetch.
    private static func fetchPeer(query: @escaping (_ count: Int) -> (sql: String, bindings: [Any])) -> Peer {
        Peer(name: "raw", family: .raw) { input in
            let connection = try SQLiteConnection(path: input.storeURL.path, settings: input.settings)
            let (sql, bindings) = query(input.count)
            return PreparedRun(
                body: { try fetchScoredItems(sql, bindings: bindings, from: connection).reduce(0) { $0 &+ $1.score } },
                tearDown: { connection.close() })
        }
    }
}
