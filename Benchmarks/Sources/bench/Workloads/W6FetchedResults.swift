extension Workload {
    /// W6 (spec §7.2): a fetched results controller over 100k `SectionedItem` objects
    /// (``SectionedItemTable``) in 1,000 sections by `section`, sorted by (`section`, `score`,
    /// `serial`), `fetchBatchSize = 50`. `--count` is the number of objects; there are always
    /// 1,000 sections (fewer below 1,000 objects).
    ///
    /// 6a, the initial fetch. Peers: raw SQLite, the two queries spec §7.2 names (every object's
    /// key and section name in order, then the section sizes from a grouped count); GRDB, a
    /// `ValueObservation` of the same two queries, from `start` to its initial value; ours,
    /// controller creation and `performFetch()` on the stack's fresh context.
    ///
    /// 6b, delivery of a background save of 200 changes (100 updates: 60 scores that mostly
    /// stay in place, 30 that move within their section, 10 objects swapping sections; 50
    /// inserts; 50 deletes; ``SectionedItemTable/changes(count:)``). Peers: ours-delivery, a
    /// background context's `save()` merged by the controller's context
    /// (`automaticallyMergesChangesFromParent`) up to the delegate's
    /// `controllerDidChangeContent(_:)`; ours-merge, only the merge
    /// (`mergeChanges(fromContextDidSave:)`) and the controller's work, the save done in set-up;
    /// GRDB, the write of the same changes up to the observation's refetched value. There is no
    /// raw peer for 6b: raw SQLite has no change delivery.
    ///
    /// Every peer returns the section checksum (``SectionedItemTable/sectionChecksum(sizes:)``),
    /// which W6b's save leaves unchanged; the ours 6b peers also check, in tear-down, the
    /// controller's objects against a new fetch.
    ///
    /// `RESULT W6`: `raw=` ours-fetch/raw and `grdb=` ours-fetch/grdb-observe (6a; goal ≤ 1.5×
    /// raw), `ms=` the median of ours-delivery in milliseconds (6b; goal ≤ 10 ms), `merge_ms=`
    /// the median of ours-merge, `grdb_ms=` the median of grdb-delivery.
    static var w6FetchedResults: Workload {
        var peers = [RawSQLitePeers.fetchSections, GRDBPeers.observeSections, GRDBPeers.deliverSections]
        #if canImport(CoreData)
        peers.insert(CoreDataPeers.fetchSections, at: 2)
        peers += [CoreDataPeers.deliverChanges, CoreDataPeers.mergeChanges]
        let fixture = Fixture.template(describedAs: "sectioned items inserted and saved by ours (one save)") { input in
            try SectionedItemModel.createStore(at: input.storeURL, count: input.count, settings: input.settings)
            try ItemTable.checkpoint(at: input.storeURL)
        }
        #else
        let fixture = Fixture.template(describedAs: "ZSECTIONEDITEM built by raw SQLite (ours not compiled in)") { input in
            try RawSQLitePeers.createSectionedItemStore(at: input.storeURL, count: input.count, settings: input.settings)
            try ItemTable.checkpoint(at: input.storeURL)
        }
        #endif
        return Workload(
            name: "W6",
            summary: "fetched results controller, 1k sections: 6a performFetch; 6b 200 background changes to "
                + "controllerDidChangeContent (× raw: over 6a's raw)",
            defaultCount: 100_000,
            fixture: fixture,
            peers: peers,
            expectedChecksum: { count in Checksum(values: [SectionedItemTable.expectedChecksum(count: count)]) },
            results: [
                ResultLine(
                    label: "W6", ours: "ours-fetch", raw: "raw", grdb: "grdb-observe",
                    extras: [
                        .medianMilliseconds(field: "ms", peer: "ours-delivery"),
                        .medianMilliseconds(field: "merge_ms", peer: "ours-merge"),
                        .medianMilliseconds(field: "grdb_ms", peer: "grdb-delivery"),
                    ]),
            ])
    }
}
