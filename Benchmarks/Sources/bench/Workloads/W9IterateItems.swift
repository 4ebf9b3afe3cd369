extension Workload {
    /// W9's `fetchBatchSize`. The spec says 500; the issue asks for 100, which is what runs.
    static let w9FetchBatchSize = 100

    /// How many objects the "ours" W9 peers read between two `reset()`s (or refreshes).
    static let w9ResetInterval = 10_000

    /// The size of the GRDB batched peer's batches (the spec's "ID array + 1000-row batches").
    static let w9GRDBBatchSize = 1_000

    /// W9 (spec §7.2): iterate over the 1M objects reading one attribute (`score`) of each, and
    /// measure the peak memory.
    ///
    /// Peers: raw cursor (step loop, no materialization); GRDB `Record` cursor, GRDB batched (every
    /// key, then `Record`s 1,000 keys at a time) and GRDB `Record.fetchAll`; ours batched
    /// (`fetchBatched`, the lazy collection, `fetchBatchSize` 100, `reset()` every 10k), ours
    /// fetch (Apple's `fetch` with `fetchBatchSize` 100, which on Linux returns an array holding
    /// every object as a fault; refreshed every 10k) and ours fetch-all (`fetch` without a batch
    /// size). The checksum is the sum of the scores.
    ///
    /// `RESULT` lines: `W9` ours-batched against grdb-batched (goals: time ≤ 2× GRDB batched, peak
    /// ≤ baseline + 40 MB); `W9b` ours-fetch against grdb-batched (same goals, for Apple's API);
    /// `W9c` ours-fetch-all against grdb-fetchall (goal ≤ 400 bytes per object).
    static var w9IterateItems: Workload {
        var peers = [
            RawSQLitePeers.iterateScores,
            GRDBPeers.iterateCursor,
            GRDBPeers.iterateBatches,
            GRDBPeers.iterateFetchAll,
        ]
        #if canImport(CoreData)
        peers += [CoreDataPeers.iterateBatched, CoreDataPeers.iterateFetched, CoreDataPeers.iterateFetchAll]
        #endif
        return Workload(
            name: "W9",
            summary: "iterate over every object reading 1 attribute: memory high-water mark, batched and fetch-all",
            defaultCount: 1_000_000,
            fixture: .scoredItems,
            peers: peers,
            expectedChecksum: { count in Checksum(values: [ScoredItemTable.scoreSum(count: count)]) },
            results: [
                ResultLine(label: "W9", ours: "ours-batched", raw: "raw", grdb: "grdb-batched"),
                ResultLine(label: "W9b", ours: "ours-fetch", raw: "raw", grdb: "grdb-batched"),
                ResultLine(label: "W9c", ours: "ours-fetch-all", raw: "raw", grdb: "grdb-fetchall", extras: [.bytesPerObject]),
            ],
            measuresMemory: true)
    }
}
