import GRDB

extension GRDBPeers {
    /// W4a GRDB: `GRDBScoredItem.fetchCount(db)`.
    static var countAll: Peer {
        countPeer { db, _ in try GRDBScoredItem.fetchCount(db) }
    }

    /// W4b GRDB: `filter((lower...upper).contains(Column("ZSCORE"))).fetchCount(db)`.
    static var countByScore: Peer {
        countPeer { db, count in
            try GRDBScoredItem.all().byScore(count: count).fetchCount(db)
        }
    }

    /// W4c GRDB: the same on the unindexed column.
    static var countByUnindexedScore: Peer {
        countPeer { db, count in
            try GRDBScoredItem.all().byUnindexedScore(count: count).fetchCount(db)
        }
    }

    /// A W4 peer counting ``Workload/w4CountsPerRun`` times in one `inDatabase`; returns the sum of
    /// the counts. Set-up (not measured): open the queue on the fixture copy.
    private static func countPeer(count: @escaping (Database, _ objects: Int) throws -> Int) -> Peer {
        Peer(name: "grdb", family: .grdb) { input in
            let queue = try openQueue(at: input.storeURL, settings: input.settings)
            return PreparedRun(
                body: {
                    try queue.inDatabase { db in
                        var total: Int64 = 0
                        for _ in 0..<Workload.w4CountsPerRun {
                            total += Int64(try count(db, input.count))
                        }
                        return total
                    }
                },
                tearDown: { try queue.close() })
        }
    }
}
