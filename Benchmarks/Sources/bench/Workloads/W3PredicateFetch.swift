extension Workload {
    /// W3a (spec §7.2): fetch the 1% of a 1M-row store whose indexed `score` lies in a range
    /// (`score BETWEEN {lower, upper}`), every object materialized and its score read.
    ///
    /// Peers: raw runs the statement our store runs (``ScoredItemTable/selectByScoreSQL``, same
    /// plan: a search of the score index) and builds a struct per row; GRDB struct and `Record`
    /// `filter(range.contains(Column("ZSCORE"))).fetchAll`; ours `fetch` then `value(forKey:
    /// "score")` per object. The checksum is the sum of the scores. Goals: ours ≤ 1.5× raw with
    /// the same plan (issue), ≤ 1.5× GRDB for the same rows (spec).
    static var w3aIndexedFetch: Workload {
        var peers = [RawSQLitePeers.fetchByScore, GRDBPeers.fetchByScoreStructs, GRDBPeers.fetchByScoreRecords]
        #if canImport(CoreData)
        peers.append(CoreDataPeers.fetchByScore)
        #endif
        return w3Case(
            name: "W3a", summary: "fetch 1% of the rows by `score BETWEEN` on the indexed attribute",
            peers: peers, expected: ScoredItemTable.scoreRangeSum(count:))
    }

    /// W3b: the same range of `unindexedScore`, which has no index (a full scan for every peer).
    static var w3bUnindexedFetch: Workload {
        var peers = [RawSQLitePeers.fetchByUnindexedScore, GRDBPeers.fetchByUnindexedScoreStructs, GRDBPeers.fetchByUnindexedScoreRecords]
        #if canImport(CoreData)
        peers.append(CoreDataPeers.fetchByUnindexedScore)
        #endif
        return w3Case(
            name: "W3b", summary: "fetch 1% of the rows by `BETWEEN` on an unindexed attribute",
            peers: peers, expected: ScoredItemTable.scoreRangeSum(count:))
    }

    /// W3c: `name BEGINSWITH[c] "cd"` (1% of the names, in either case), sorted by `created`,
    /// `fetchLimit` 50: a scan, and a sorter keeping the first 50. Raw and GRDB use `LIKE 'cd%'`
    /// (ASCII case-insensitive), ours its Unicode-aware `cd_search` SQL function.
    static var w3cPrefixFetch: Workload {
        var peers = [RawSQLitePeers.fetchByPrefix, GRDBPeers.fetchByPrefixStructs, GRDBPeers.fetchByPrefixRecords]
        #if canImport(CoreData)
        peers.append(CoreDataPeers.fetchByPrefix)
        #endif
        return w3Case(
            name: "W3c", summary: "fetch `name BEGINSWITH[c]` sorted by another attribute, limit 50",
            peers: peers, expected: ScoredItemTable.prefixFetchScoreSum(count:))
    }

    /// A W3 case on the shared 1M-row fixture, reported as ours/raw and ours/grdb-record.
    private static func w3Case(name: String, summary: String, peers: [Peer], expected: @escaping (Int) -> Int64) -> Workload {
        Workload(
            name: name,
            group: "W3",
            summary: summary,
            defaultCount: 1_000_000,
            fixture: .scoredItems,
            peers: peers,
            expectedChecksum: { count in Checksum(values: [expected(count)]) },
            results: [ResultLine(label: name, ours: "ours", raw: "raw", grdb: "grdb-record")])
    }
}
