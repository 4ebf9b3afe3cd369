extension Workload {
    /// The pause W11's writer makes before commit `index`, in seconds: 20 to 50 ms, varying from
    /// commit to commit so that the commits neither coalesce into one notification nor keep step
    /// with the observer's re-check delays (2, 10, 50 and 250 ms).
    static func w11Pause(beforeCommit index: Int) -> Double {
        Double(20 + index * 13 % 31) / 1_000
    }

    /// W11 (issue 21): remote-change latency. Another process (``RemoteCommitWriter``, the bench
    /// executable started again) commits `count` small transactions to the store file, W10's
    /// update of one attribute of one item each, 20 to 50 ms apart; this process learns of each.
    /// Measured per commit: from the moment the writer's commit returned to the moment the reader
    /// learned of it, both on `CLOCK_MONOTONIC` (``RemoteCommitExchange``). The store holds
    /// `count` items (``Fixture/items``); the table's times are those of the whole exchange.
    ///
    /// Peers: ours, a coordinator whose store sets
    /// `NSPersistentStoreRemoteChangeNotificationPostOptionKey`, to the arrival of its
    /// `NSPersistentStoreRemoteChange` notification; raw-inotify, the floor, inotify plus
    /// `PRAGMA data_version` with nothing in between (``InotifyCommitWatcher``). The checksum is
    /// the number of commits plus the row count and attribute sum read back from the file.
    ///
    /// `RESULT W11`: `median_ms=`, `p90_ms=`, `p99_ms=`, `max_ms=` of ours over every measured
    /// run and `missed=` (commits no notification reported within a second), the same fields of
    /// the floor prefixed `raw_`, and `raw_latency=`, ours' median over the floor's. Goal: median
    /// ≤ 20 ms, p99 ≤ 100 ms. Also runs with rollback + `FULL` (`--journal rollback|both`).
    static var w11RemoteChange: Workload {
        var peers = [RawSQLitePeers.watchRemoteCommits]
        #if canImport(CoreData)
        peers.append(CoreDataPeers.notifyRemoteCommits)
        #endif
        return Workload(
            name: "W11",
            summary: "remote change: a commit in another process to NSPersistentStoreRemoteChange (latencies below the table)",
            defaultCount: 200,
            fixture: .items,
            peers: peers,
            expectedChecksum: { count in
                let commits = Int64(count)
                return Checksum(values: [commits, commits, ItemTable.attributeSum(count: count) + commits])
            },
            storeChecksum: ItemTable.storeChecksum(at:),
            results: [
                ResultLine(
                    label: "W11", ours: "ours",
                    extras: [
                        .eventLatencies(prefix: "", peer: "ours"),
                        .eventLatencies(prefix: "raw_", peer: "raw-inotify"),
                        .medianLatencyRatio(field: "raw_latency", over: "raw-inotify"),
                    ]),
            ],
            supportsRollback: true)
    }
}
