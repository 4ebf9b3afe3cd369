import Foundation

// The content of a fetch. When the request's store answers it alone, one query reads every
// row's primary key and sort-key values, and the objects are made only when asked for;
// otherwise the context fetches the objects (with their rows), their keys are read from them,
// and they are ordered by those keys: the objects a context holds keep their values (changed
// here, or not merged yet from another context's save), while the store sorts by its own.
extension FetchedResultsEngine {
    typealias SectionRun = (name: String, entries: [FetchedResultsSection.Entry])

    /// The results of `request` in sections.
    ///
    /// - Throws: the fetch's error, or 134060 when a section name comes back after another one:
    ///   the section key path does not follow the sort, as Apple's controller reports it.
    func fetchContent(of request: NSFetchRequest<NSManagedObject>, entity: NSEntityDescription?, order: FetchedResultsOrder,
                      dependencies: FetchedResultsDependencies) throws -> FetchedResultsContent {
        let signature = entity.flatMap { cacheSignature(of: request, entity: $0) }
        let cached = cacheName.flatMap(FetchedResultsCache.load(named:)).flatMap { $0.signature == signature ? $0.sections : nil }
        let indexTitle = { [unowned self] in self.indexTitle(forSectionName: $0) }
        let runs: [SectionRun]
        var rows: FetchedResultsRows?
        if let keyed = try fetchKeys(of: request, order: order, dependencies: dependencies) {
            let fetched = FetchedResultsRows(context: context, identifiers: keyed.objectIDs, batchSize: request.fetchBatchSize)
            rows = fetched
            runs = try Self.runs(count: keyed.values.count, cached: cached, name: { order.sectionName(ofValues: keyed.values[$0]) }) { index, name in
                FetchedResultsSection.Entry(object: nil, row: fetched.row(at: index), key: FetchedResultsKey(values: keyed.values[index], sectionName: name))
            }
        } else {
            // Rows come with the objects, in one query, so that reading the keys fires no fault.
            request.fetchBatchSize = 0
            let fetched = try context.fetch(request)
            let fetchedKeys = try fetched.map(order.key(of:))
            // In the order of the keys; among equal keys, in the store's order.
            let sorted = fetched.indices.sorted { lhs, rhs in
                let result = order.compare(fetchedKeys[lhs], fetchedKeys[rhs])
                return result == .orderedSame ? lhs < rhs : result == .orderedAscending
            }
            let objects = sorted.map { fetched[$0] }
            let keys = sorted.map { fetchedKeys[$0] }
            runs = try Self.runs(count: objects.count, cached: cached, name: { keys[$0].sectionName }) { index, _ in
                FetchedResultsSection.Entry(object: objects[index], row: nil, key: keys[index])
            }
        }
        if let cacheName, let signature {
            FetchedResultsCache(signature: signature, sections: runs.map { .init(name: $0.name, count: $0.entries.count) }).save(named: cacheName)
        }
        return FetchedResultsContent(order: order, sections: runs, rows: rows, indexTitle: indexTitle)
    }

    /// The IDs and key values of the objects a batched request matches, read by the store's
    /// query alone; nil when the request is not batched (its objects are made at once, as
    /// Apple's are), prefetches or refreshes objects, the store cannot answer alone, or the
    /// context has unsaved changes of objects the key paths reach through relationships.
    private func fetchKeys(of request: NSFetchRequest<NSManagedObject>, order: FetchedResultsOrder,
                           dependencies: FetchedResultsDependencies) throws -> FetchedKeyedObjectIDs? {
        guard request.fetchBatchSize > 0, !request.shouldRefreshRefetchedObjects, (request.relationshipKeyPathsForPrefetching ?? []).isEmpty,
              let keyPaths = order.keyPaths, context.pendingObjects(of: dependencies.reachedEntities).isEmpty else { return nil }
        return try context.fetchCompactObjectIDs(request, withValuesOf: keyPaths)
    }

    /// The signature of the results for the cache: only for results that are the stores' data
    /// (no unsaved change of the entity, no limit or offset) in stores with files.
    private func cacheSignature(of request: NSFetchRequest<NSManagedObject>, entity: NSEntityDescription) -> FetchedResultsCache.Signature? {
        guard cacheName != nil, request.fetchLimit == 0, request.fetchOffset == 0, !hasPendingChanges(of: entity),
              let coordinator = context.persistentStoreCoordinator else { return nil }
        return FetchedResultsCache.signature(of: request, entity: entity, sectionNameKeyPath: sectionNameKeyPath, stores: coordinator.persistentStores)
    }

    /// Whether the context has unsaved changes of the entity's hierarchy, which the cache does
    /// not see.
    private func hasPendingChanges(of entity: NSEntityDescription) -> Bool {
        context.hasChanges && !context.pendingObjects(of: entity.selfAndDescendants).isEmpty
    }

    /// Entries in sections: by the cached section sizes when they add up to `count` (the names
    /// are then not computed), otherwise by each entry's section name, checked to come in
    /// contiguous runs.
    private static func runs(count: Int, cached: [FetchedResultsCache.Section]?, name: (Int) -> String,
                             entry: (Int, String) -> FetchedResultsSection.Entry) throws -> [SectionRun] {
        let starts = try cachedStarts(count: count, cached: cached) ?? sectionStarts(count: count, name: name)
        return starts.indices.map { position in
            let end = position + 1 < starts.count ? starts[position + 1].start : count
            let name = starts[position].name
            return (name, (starts[position].start..<end).map { entry($0, name) })
        }
    }

    /// The name and first position of each cached section, when their sizes add up to `count`.
    private static func cachedStarts(count: Int, cached: [FetchedResultsCache.Section]?) -> [(name: String, start: Int)]? {
        guard let cached, cached.reduce(0, { $0 + $1.count }) == count else { return nil }
        var start = 0
        return cached.map { section in
            defer { start += section.count }
            return (section.name, start)
        }
    }

    /// The name and first position of each section, from each entry's section name.
    private static func sectionStarts(count: Int, name: (Int) -> String) throws -> [(name: String, start: Int)] {
        var starts: [(name: String, start: Int)] = []
        var seen = Set<String>()
        for index in 0..<count {
            let sectionName = name(index)
            if let last = starts.last, last.name == sectionName { continue }
            guard seen.insert(sectionName).inserted else {
                let reason = "The fetched object at index \(index) has an out of order section name '\(sectionName). Objects must be sorted by section name'"
                throw CoreDataError.make(NSCoreDataError, reason, userInfo: ["reason": reason])
            }
            starts.append((sectionName, index))
        }
        return starts
    }
}
