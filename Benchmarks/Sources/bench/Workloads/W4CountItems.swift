extension Workload {
    /// How many counts each W4 run makes, one after the other on the same connection or context:
    /// a single count lasts a few milliseconds, too little to compare to within 50 µs.
    static let w4CountsPerRun = 10

    /// W4a (spec §7.2): count the 1M rows, no predicate.
    ///
    /// Peers: raw `SELECT COUNT(*)`, the statement our store runs (``ScoredItemTable/countAllSQL``),
    /// prepared once and stepped ``w4CountsPerRun`` times; GRDB `fetchCount`; ours
    /// `context.count(for:)`, which must register no object (the run fails otherwise). The checksum
    /// is the sum of the counts. Goal: ours ≤ raw + 50 µs per count (`over_raw_us=`).
    static var w4aCountAll: Workload {
        var peers = [RawSQLitePeers.countAll, GRDBPeers.countAll]
        #if canImport(CoreData)
        peers.append(CoreDataPeers.countAll)
        #endif
        return w4Case(name: "W4a", summary: "count(for:) without a predicate", peers: peers) { count in Int64(count) }
    }

    /// W4b: count the 1% whose indexed `score` is in W3's range (a search of the index).
    static var w4bCountIndexed: Workload {
        var peers = [RawSQLitePeers.countByScore, GRDBPeers.countByScore]
        #if canImport(CoreData)
        peers.append(CoreDataPeers.countByScore)
        #endif
        return w4Case(name: "W4b", summary: "count(for:) with `score BETWEEN` on the indexed attribute", peers: peers) { count in
            Int64(ScoredItemTable.scoreRange(count: count).count)
        }
    }

    /// W4c: the same range of the unindexed `unindexedScore` (a full scan).
    static var w4cCountUnindexed: Workload {
        var peers = [RawSQLitePeers.countByUnindexedScore, GRDBPeers.countByUnindexedScore]
        #if canImport(CoreData)
        peers.append(CoreDataPeers.countByUnindexedScore)
        #endif
        return w4Case(name: "W4c", summary: "count(for:) with `BETWEEN` on an unindexed attribute", peers: peers) { count in
            Int64(ScoredItemTable.scoreRange(count: count).count)
        }
    }

    /// A W4 case on the shared 1M-row fixture, reported as ours/raw, ours/grdb, the difference per
    /// count in microseconds and the peak memory.
    private static func w4Case(name: String, summary: String, peers: [Peer], matches: @escaping (Int) -> Int64) -> Workload {
        Workload(
            name: name,
            group: "W4",
            summary: "\(summary), \(w4CountsPerRun) counts per run",
            defaultCount: 1_000_000,
            fixture: .scoredItems,
            peers: peers,
            expectedChecksum: { count in Checksum(values: [Int64(w4CountsPerRun) * matches(count)]) },
            results: [
                ResultLine(
                    label: name, ours: "ours", raw: "raw", grdb: "grdb",
                    extras: [.microsecondsOverRaw(operationsPerRun: w4CountsPerRun)]),
            ],
            measuresMemory: true)
    }
}
