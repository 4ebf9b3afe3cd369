extension Workload {
    /// The group of the PostgreSQL workloads: `bench postgresql` runs them all, while `bench W2`
    /// runs what it ran before they existed.
    static let postgreSQLGroup = "postgresql"

    /// W1-postgresql (issue 23): W1 into a new PostgreSQL store, beside raw PostgresNIO inserting
    /// the same rows in one transaction with multi-row `INSERT`s of bound parameters. The
    /// checksum is the object count plus the row count and attribute sum read back from the
    /// peer's schema. Goal: ≤ 1.5× raw.
    static var w1pInsertItemsIntoPostgreSQL: Workload {
        var peers = [RawPostgresNIOPeers.insertItems]
        #if canImport(CoreDataPostgreSQL)
        peers.append(CoreDataPeers.insertItemsIntoPostgreSQL)
        #endif
        return postgreSQLWorkload(
            name: "W1-postgresql",
            summary: "insert Item objects into a new PostgreSQL store, one save/transaction",
            defaultCount: 100_000,
            fixture: .none,
            peers: peers,
            expectedChecksum: { count in Checksum(values: [Int64(count)] + ItemTable.expectedStoreChecksum(count: count)) })
    }

    /// W2-postgresql (issue 23): W2 (2a) on a PostgreSQL store of 100k items, beside raw
    /// PostgresNIO selecting the ten columns and building a struct per row, its whole result
    /// first and, in a second raw peer, row by row as the rows arrive (`vs_streamed_raw=`, the
    /// streamed peer's median over ours). The checksum is the sum of every attribute read.
    /// Goal: ≤ 1.5× raw.
    static var w2pFetchItemsFromPostgreSQL: Workload {
        var peers = [RawPostgresNIOPeers.fetchItems, RawPostgresNIOPeers.fetchItemsStreamed]
        #if canImport(CoreDataPostgreSQL)
        peers.append(CoreDataPeers.fetchItemsFromPostgreSQL)
        #endif
        return postgreSQLWorkload(
            name: "W2-postgresql",
            summary: "fetch Item objects from PostgreSQL and read all 10 attributes of each",
            defaultCount: 100_000,
            fixture: .postgreSQLItems,
            peers: peers,
            expectedChecksum: { count in Checksum(values: [ItemTable.attributeSum(count: count)]) },
            extras: [.timesFaster(field: "vs_streamed_raw", than: RawPostgresNIOPeers.streamedName)])
    }

    /// W3a-postgresql (issue 23): W3a on a PostgreSQL store of 1M scored items, beside raw
    /// PostgresNIO running the statement our store runs (a search of the score index) and building
    /// a struct per row. The checksum is the sum of the scores. Goal: ≤ 1.5× raw.
    static var w3apIndexedFetchFromPostgreSQL: Workload {
        var peers = [RawPostgresNIOPeers.fetchByScore]
        #if canImport(CoreDataPostgreSQL)
        peers.append(CoreDataPeers.fetchByScoreFromPostgreSQL)
        #endif
        return postgreSQLWorkload(
            name: "W3a-postgresql",
            summary: "fetch 1% of the rows from PostgreSQL by `score BETWEEN` on the indexed attribute",
            defaultCount: 1_000_000,
            fixture: .postgreSQLScoredItems,
            peers: peers,
            expectedChecksum: { count in Checksum(values: [ScoredItemTable.scoreRangeSum(count: count)]) })
    }

    /// W10-postgresql (issue 23): W10's 1,000 saves of one changed object each on a PostgreSQL
    /// store of 100k items, beside raw PostgresNIO running our store's `UPDATE` in autocommit,
    /// one transaction and one round trip per save. The checksum is the number of saves plus the
    /// row count and attribute sum read back from the peer's schema. `over_raw_us=` is the extra
    /// time per save. Goal: ≤ 1.5× raw.
    static var w10pSmallSavesToPostgreSQL: Workload {
        var peers = [RawPostgresNIOPeers.updateItemsAutocommit]
        #if canImport(CoreDataPostgreSQL)
        peers.append(CoreDataPeers.saveItemUpdatesToPostgreSQL)
        #endif
        return postgreSQLWorkload(
            name: "W10-postgresql",
            summary: "small-save latency on PostgreSQL: \(w10SavesPerRun) saves of 1 changed object each (µs/object: per store object)",
            defaultCount: 100_000,
            fixture: .postgreSQLItems,
            peers: peers,
            expectedChecksum: { count in
                let saves = Int64(w10Targets(count: count).count)
                return Checksum(values: [saves, Int64(count), ItemTable.attributeSum(count: count) + saves])
            },
            extras: [.microsecondsOverRaw(operationsPerRun: w10SavesPerRun)])
    }

    /// A workload of the PostgreSQL group comparing `ours-postgresql` with `raw-postgresnio`,
    /// skipped when no server is named (``PostgreSQLServer/unavailability``).
    private static func postgreSQLWorkload(
        name: String, summary: String, defaultCount: Int, fixture: Fixture, peers: [Peer],
        expectedChecksum: @escaping (_ count: Int) -> Checksum, extras: [ResultExtra] = []
    ) -> Workload {
        Workload(
            name: name,
            group: postgreSQLGroup,
            summary: summary,
            defaultCount: defaultCount,
            fixture: fixture,
            peers: peers,
            expectedChecksum: expectedChecksum,
            results: [
                ResultLine(label: name, ours: "ours-postgresql", raw: RawPostgresNIOPeers.name, grdb: nil, extras: extras),
            ],
            unavailability: PostgreSQLServer.unavailability,
            settingsDescription: PostgreSQLServer.settingsDescription)
    }
}
