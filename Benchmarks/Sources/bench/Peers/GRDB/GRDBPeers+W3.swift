import GRDB

extension GRDBPeers {
    /// W3a GRDB, struct records: `filter((lower...upper).contains(Column("ZSCORE"))).fetchAll(db)`
    /// (SQL `BETWEEN` on the indexed column), then the sum of the scores.
    static var fetchByScoreStructs: Peer {
        fetchPeer(named: "grdb-struct", GRDBScoredItem.self, score: \.score) { $0.byScore(count: $1) }
    }

    /// W3a GRDB, `Record` class: the same query. The GRDB figure of W3a's `RESULT` line.
    static var fetchByScoreRecords: Peer {
        fetchPeer(named: "grdb-record", GRDBScoredItemRecord.self, score: \.score) { $0.byScore(count: $1) }
    }

    /// W3b GRDB, struct records: the `BETWEEN` on the unindexed column.
    static var fetchByUnindexedScoreStructs: Peer {
        fetchPeer(named: "grdb-struct", GRDBScoredItem.self, score: \.score) { $0.byUnindexedScore(count: $1) }
    }

    /// W3b GRDB, `Record` class. The GRDB figure of W3b's `RESULT` line.
    static var fetchByUnindexedScoreRecords: Peer {
        fetchPeer(named: "grdb-record", GRDBScoredItemRecord.self, score: \.score) { $0.byUnindexedScore(count: $1) }
    }

    /// W3c GRDB, struct records: `filter(Column("ZNAME").like("cd%")).order(Column("ZCREATED")).limit(50)`.
    static var fetchByPrefixStructs: Peer {
        fetchPeer(named: "grdb-struct", GRDBScoredItem.self, score: \.score) { request, _ in request.byNamePrefix() }
    }

    /// W3c GRDB, `Record` class. The GRDB figure of W3c's `RESULT` line.
    static var fetchByPrefixRecords: Peer {
        fetchPeer(named: "grdb-record", GRDBScoredItemRecord.self, score: \.score) { request, _ in request.byNamePrefix() }
    }

    /// A W3 peer: `refine(Record.all(), count).fetchAll(db)`, then the sum of the scores. Set-up
    /// (not measured): open the queue on the fixture copy, apply the pragmas.
    private static func fetchPeer<Record: FetchableRecord & TableRecord>(
        named name: String, _ type: Record.Type, score: KeyPath<Record, Int64>,
        refine: @escaping (QueryInterfaceRequest<Record>, _ count: Int) -> QueryInterfaceRequest<Record>
    ) -> Peer {
        Peer(name: name, family: .grdb) { input in
            let queue = try openQueue(at: input.storeURL, settings: input.settings)
            return PreparedRun(
                body: {
                    try queue.inDatabase { db in
                        try refine(Record.all(), input.count).fetchAll(db).reduce(0) { $0 &+ $1[keyPath: score] }
                    }
                },
                tearDown: { try queue.close() })
        }
    }
}
