extension Workload {
    /// The numbers of writer processes W12-postgresql compares.
    static let w12WriterCounts = [1, 2, 4]

    /// The items (0-based indexes, increasing) that writer `writer` of `writers` saves in a
    /// W12-postgresql run on a store of `count` items: every `writers`-th item from its own, so
    /// that every item is saved once per run and no two writers change the same object.
    static func w12Targets(count: Int, writers: Int, writer: Int) -> [Int] {
        Array(stride(from: writer, to: count, by: writers))
    }

    /// The name of W12's peer of `family` with `writers` processes, e.g. `ours-postgresql-2-writers`.
    static func w12PeerName(_ family: PeerFamily, writers: Int) -> String {
        let base = family == .ours ? "ours-postgresql" : RawPostgresNIOPeers.name
        return "\(base)-\(writers)-writer" + (writers == 1 ? "" : "s")
    }

    /// W12-postgresql (issue 23): scaling with writer processes. On a PostgreSQL store of
    /// `count` items (default 10,000; ``Fixture/postgreSQLItems``), 1, 2 and 4 processes (the
    /// bench executable started again, ``ScalingWriters``) share the run's `count` saves, each
    /// save W10's change of one object, every item once, each writer its own items. The writers
    /// set up before the run (the store added, their objects fetched); the run starts them at once
    /// and ends when the last has saved its share. `µs/object` is per save, all writers together.
    ///
    /// Peers: ours (W10's `setValue` + `save()` in each writer) and raw PostgresNIO (W10's
    /// autocommit `UPDATE`) with each number of writers. The checksum is the number of saves plus
    /// the row count and attribute sum read back from the peer's schema.
    ///
    /// `RESULT W12-postgresql-<n>`: ours/raw with `n` writers, `saves_per_s=` (ours, every
    /// writer together), `raw_saves_per_s=`, and from 2 writers on `vs_1_writer=`, ours' speed-up
    /// over one writer. Goal (issue): throughput rising with the processes until the server is
    /// the limit. The table's `cpu s` and `allocs/object` are the benchmark process's, which only
    /// waits: the writers' are not counted.
    static var w12pScalingWriters: Workload {
        var families = [PeerFamily.raw]
        #if canImport(CoreDataPostgreSQL)
        families.insert(.ours, at: 0)
        #endif
        let peers = families.flatMap { family in
            w12WriterCounts.map { ScalingWriters.peer(name: w12PeerName(family, writers: $0), family: family, writers: $0) }
        }
        return Workload(
            name: "W12-postgresql",
            group: postgreSQLGroup,
            summary: "scaling: saves of 1 changed object each, shared by 1, 2 and 4 writer processes on one PostgreSQL store (µs/object: per save)",
            defaultCount: 10_000,
            fixture: .postgreSQLItems,
            peers: peers,
            expectedChecksum: { count in
                Checksum(values: [Int64(count), Int64(count), ItemTable.attributeSum(count: count) + Int64(count)])
            },
            results: w12WriterCounts.map { writers in
                let ours = w12PeerName(.ours, writers: writers)
                var extras: [ResultExtra] = [
                    .objectsPerSecond(field: "saves_per_s", peer: ours),
                    .objectsPerSecond(field: "raw_saves_per_s", peer: w12PeerName(.raw, writers: writers)),
                ]
                if writers > 1 {
                    extras.append(.timesFaster(field: "vs_1_writer", than: w12PeerName(.ours, writers: 1)))
                }
                return ResultLine(
                    label: "W12-postgresql-\(writers)", ours: ours, raw: w12PeerName(.raw, writers: writers), grdb: nil, extras: extras)
            },
            unavailability: PostgreSQLServer.unavailability,
            settingsDescription: PostgreSQLServer.settingsDescription)
    }
}
