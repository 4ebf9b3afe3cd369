extension Workload {
    /// W5 (spec §7.2): to-many traversal. 1k parents × 100 children (100k `Child` rows, the
    /// foreign key indexed); for each parent, access `children` and read 2 attributes (`serial`,
    /// `weight`) of each child. `--count` is the number of children; there are always 100 per
    /// parent.
    ///
    /// Peers: raw N+1 (the parents, then 1,000 indexed queries, one per parent); raw single query
    /// (the parents, then every child ordered by the foreign key, grouped as it arrives); GRDB
    /// `including(all:)` over a `hasMany` association; ours 5a naive (fetch the parents, fire each
    /// one's to-many fault); ours 5b with `relationshipKeyPathsForPrefetching = ["children"]`. The
    /// checksum is the sum of `serial + weight` over every child read.
    ///
    /// Ours 5c is 5b in a child context of the stack's context (the spec expects it to cost as
    /// much as 5b; no goal of its own).
    ///
    /// `RESULT` lines: `W5a` ours-naive against raw N+1 (goal ≤ 3× raw N+1) and GRDB; `W5b`
    /// ours-prefetch against the raw single query and GRDB `including(all:)` (goal ≤ 2× GRDB);
    /// `W5c` ours-child-prefetch against the same.
    static var w5ToManyTraversal: Workload {
        var peers = [
            RawSQLitePeers.traverseNPlusOne,
            RawSQLitePeers.traverseSingleQuery,
            GRDBPeers.traverseIncludingAll,
        ]
        #if canImport(CoreData)
        peers += [CoreDataPeers.traverseNaive, CoreDataPeers.traversePrefetching, CoreDataPeers.traversePrefetchingInChild]
        let fixture = Fixture.template(describedAs: "parents and children inserted and saved by ours (one save)") { input in
            try ParentChildModel.createStore(at: input.storeURL, count: input.count, settings: input.settings)
            try ItemTable.checkpoint(at: input.storeURL)
        }
        #else
        let fixture = Fixture.template(describedAs: "ZPARENT and ZCHILD built by raw SQLite (ours not compiled in)") { input in
            try RawSQLitePeers.createParentChildStore(at: input.storeURL, count: input.count, settings: input.settings)
            try ItemTable.checkpoint(at: input.storeURL)
        }
        #endif
        return Workload(
            name: "W5",
            summary: "to-many traversal: for each of 1k parents, its 100 children, reading 2 attributes of each",
            defaultCount: 100_000,
            fixture: fixture,
            peers: peers,
            expectedChecksum: { count in Checksum(values: [ParentChildTable.expectedChecksum(count: count)]) },
            results: [
                ResultLine(label: "W5a", ours: "ours-naive", raw: "raw-n+1", grdb: "grdb-including"),
                ResultLine(label: "W5b", ours: "ours-prefetch", raw: "raw-single", grdb: "grdb-including"),
                ResultLine(label: "W5c", ours: "ours-child-prefetch", raw: "raw-single", grdb: "grdb-including"),
            ])
    }
}
