import Foundation

// The sections of a fetch. Objects' keys are read later, as searches need them; only section
// names are needed now, and for a request fetched in batches they come from one grouped count
// query when the store can answer it, so that the objects stay faults.
extension FetchedResultsEngine {
    typealias SectionRun = (name: String, entries: [FetchedResultsSection.Entry])

    /// The fetched objects in sections.
    ///
    /// - Throws: 134060 when a section name comes back after another one: the section key path
    ///   does not follow the sort, as Apple's controller reports it.
    func sectionRuns(of objects: [NSManagedObject], request: NSFetchRequest<NSManagedObject>, entity: NSEntityDescription?,
                     order: FetchedResultsOrder) throws -> [SectionRun] {
        guard let sectionNameKeyPath else {
            return [("", objects.map { FetchedResultsSection.Entry(object: $0, key: nil) })]
        }
        let signature = entity.flatMap { cacheSignature(of: request, entity: $0) }
        if let cacheName, let signature, let cache = FetchedResultsCache.load(named: cacheName), cache.signature == signature,
           cache.sections.reduce(0, { $0 + $1.count }) == objects.count {
            return Self.runs(of: objects, counts: cache.sections.map { ($0.name, $0.count) })
        }
        let runs: [SectionRun]
        if request.fetchBatchSize > 0, let entity,
           let counts = sectionCounts(of: request, entity: entity, keyPath: sectionNameKeyPath, order: order, total: objects.count) {
            runs = Self.runs(of: objects, counts: counts)
        } else {
            runs = try Self.runs(of: objects, order: order)
        }
        if let cacheName, let signature {
            FetchedResultsCache(signature: signature, sections: runs.map { .init(name: $0.name, count: $0.entries.count) }).save(named: cacheName)
        }
        return runs
    }

    /// The signature of the results for the cache: only for results that are the stores' data
    /// (no unsaved change of the entity, no limit or offset) in stores with files.
    private func cacheSignature(of request: NSFetchRequest<NSManagedObject>, entity: NSEntityDescription) -> FetchedResultsCache.Signature? {
        guard cacheName != nil, request.fetchLimit == 0, request.fetchOffset == 0, !hasPendingChanges(of: entity),
              let coordinator = context.persistentStoreCoordinator else { return nil }
        return FetchedResultsCache.signature(of: request, entity: entity, sectionNameKeyPath: sectionNameKeyPath, stores: coordinator.persistentStores)
    }

    /// Whether the context has unsaved changes of the entity's hierarchy, which grouped fetches
    /// and the cache do not see.
    private func hasPendingChanges(of entity: NSEntityDescription) -> Bool {
        context.hasChanges && !context.pendingObjects(of: entity.selfAndDescendants).isEmpty
    }

    /// Sections of known sizes, in order.
    private static func runs(of objects: [NSManagedObject], counts: [(String, Int)]) -> [SectionRun] {
        var runs: [SectionRun] = []
        var start = 0
        for (name, count) in counts {
            runs.append((name, objects[start..<start + count].map { FetchedResultsSection.Entry(object: $0, key: nil) }))
            start += count
        }
        return runs
    }

    /// Sections from each object's section name, checked to come in contiguous runs.
    private static func runs(of objects: [NSManagedObject], order: FetchedResultsOrder) throws -> [SectionRun] {
        var runs: [SectionRun] = []
        var seen = Set<String>()
        for (index, object) in objects.enumerated() {
            let key = try order.key(of: object)
            if let last = runs.indices.last, runs[last].name == key.sectionName {
                runs[last].entries.append(FetchedResultsSection.Entry(object: object, key: key))
                continue
            }
            guard seen.insert(key.sectionName).inserted else {
                let reason = "The fetched object at index \(index) has an out of order section name '\(key.sectionName). Objects must be sorted by section name'"
                throw CoreDataError.make(NSCoreDataError, reason, userInfo: ["reason": reason])
            }
            runs.append((key.sectionName, [FetchedResultsSection.Entry(object: object, key: key)]))
        }
        return runs
    }

    /// The section names and sizes in order, counted by the store: only when the request is
    /// sorted by the section key path first, has no limit or offset, and the context has no
    /// unsaved changes of the entity (a grouped fetch reads the store only). Nil otherwise, or
    /// when the counts do not add up to the fetched objects.
    private func sectionCounts(of request: NSFetchRequest<NSManagedObject>, entity: NSEntityDescription, keyPath: String,
                               order: FetchedResultsOrder, total: Int) -> [(String, Int)]? {
        guard let first = order.descriptors.first, first.key == keyPath, request.fetchLimit == 0, request.fetchOffset == 0,
              !hasPendingChanges(of: entity) else { return nil }

        let count = NSExpressionDescription()
        count.name = "count"
        count.expression = NSExpression(forFunction: "count:", arguments: [NSExpression(forKeyPath: keyPath)])
        count.expressionResultType = .integer64AttributeType
        let groups = NSFetchRequest<NSDictionary>(entityName: entity.name ?? "")
        groups.resultType = .dictionaryResultType
        groups.predicate = request.predicate
        groups.includesSubentities = request.includesSubentities
        groups.propertiesToFetch = [keyPath, count]
        groups.propertiesToGroupBy = [keyPath]
        groups.sortDescriptors = [first]
        guard let rows = try? context.fetch(groups) else { return nil }

        var counts: [(String, Int)] = []
        var nilGroup: Int?
        for row in rows {
            let value = row[keyPath]
            if value == nil || value is NSNull {
                nilGroup = counts.count
                counts.append(("", 0))
            } else {
                counts.append((order.sectionName(ofValue: value), (row["count"] as? NSNumber)?.intValue ?? 0))
            }
        }
        // `count:` skips nil values: the objects without a section value are the rest.
        let counted = counts.reduce(0) { $0 + $1.1 }
        if let nilGroup { counts[nilGroup].1 = total - counted } else if counted != total { return nil }
        guard counts.allSatisfy({ $0.1 > 0 }), Set(counts.map(\.0)).count == counts.count else { return nil }
        return counts
    }
}
