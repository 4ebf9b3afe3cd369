extension Workload {
    /// W7a (spec §7.2): on the shared 1M-row ``Fixture/scoredItems``, set `flag` to true on the
    /// 10% whose indexed `score` is below ``ScoredItemTable/batchScoreBound(count:)`` (100k rows:
    /// scores are a permutation of `0..<count`).
    ///
    /// Peers: raw ``ScoredItemTable/batchUpdateSQL`` in one transaction; GRDB
    /// `filter(Column("ZSCORE") < k).updateAll(db, [ZFLAG = 1, Z_OPT += 1])`; ours
    /// `NSBatchUpdateRequest` with `propertiesToUpdate = ["flag": true]` and
    /// `resultType = .updatedObjectsCountResultType`. Every peer bumps `Z_OPT`, as Core Data's batch
    /// update does. The checksum is the count each peer reports plus the row count, the sum of
    /// `flag` and the sum of `Z_OPT` read back from the file. Goal: ours ≤ 1.2× raw.
    static var w7aBatchUpdate: Workload {
        var peers = [RawSQLitePeers.batchUpdateFlags, GRDBPeers.batchUpdateFlags]
        #if canImport(CoreData)
        peers.append(CoreDataPeers.batchUpdateFlags)
        #endif
        return w7Case(name: "W7a", summary: "batch update `flag = true WHERE score < k` (100k of 1M rows)", peers: peers)
    }

    /// W7b: delete the same 100k rows. Raw ``ScoredItemTable/batchDeleteSQL`` in one transaction;
    /// GRDB `filter(Column("ZSCORE") < k).deleteAll(db)`; ours `NSBatchDeleteRequest(fetchRequest:)`
    /// with `resultType = .resultTypeCount`. Goals: ours ≤ 1.2× raw, and a peak ΔRSS (`mem=`) that
    /// does not grow with the number of rows deleted.
    static var w7bBatchDelete: Workload {
        var peers = [RawSQLitePeers.batchDeleteItems, GRDBPeers.batchDeleteItems]
        #if canImport(CoreData)
        peers.append(CoreDataPeers.batchDeleteItems)
        #endif
        return w7Case(name: "W7b", summary: "batch delete `WHERE score < k` (100k of 1M rows)", peers: peers)
    }

    /// A W7 case on the shared 1M-row fixture: every peer must report 10% of the rows and leave
    /// the same table behind; reported as ours/raw, ours/grdb and the peak memory.
    private static func w7Case(name: String, summary: String, peers: [Peer]) -> Workload {
        Workload(
            name: name,
            group: "W7",
            summary: summary,
            defaultCount: 1_000_000,
            fixture: .scoredItems,
            peers: peers,
            storeChecksum: ScoredItemTable.batchStoreChecksum(at:),
            results: [ResultLine(label: name, ours: "ours", raw: "raw", grdb: "grdb")],
            measuresMemory: true)
    }
}
