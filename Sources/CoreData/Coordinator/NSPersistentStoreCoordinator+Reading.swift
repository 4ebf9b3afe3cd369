// Reading the stores for a context: every store read a context makes comes through here, so that
// it runs under the store lock, at the context's query generation, and the rows of objects go
// through the row cache. Contexts never call a store themselves.
extension NSPersistentStoreCoordinator {
    // MARK: Fetch requests

    /// The rows matching a plan in each store, with their values.
    func rows(matching plan: FetchPlan, in stores: [NSPersistentStore], for context: NSManagedObjectContext) throws -> [RowSnapshot] {
        let rows = try reading(for: context) { try joined(stores) { try $0.fetchRows(plan) } }
        CoreDataMetrics.rowsFetched.increment(by: rows.count)
        return rows
    }

    /// The IDs of the rows matching a plan in each store.
    func objectIDs(matching plan: FetchPlan, in stores: [NSPersistentStore], for context: NSManagedObjectContext) throws -> [NSManagedObjectID] {
        try reading(for: context) { try joined(stores) { try $0.fetchObjectIDs(plan) } }
    }

    /// What `read` gives for each store, one list after the other; a single store's list as it
    /// is, which `flatMap` would copy element by element.
    private func joined<Element>(_ stores: [NSPersistentStore], _ read: (PersistentStoreEngine) throws -> [Element]) throws -> [Element] {
        if stores.count == 1 { return try read(stores[0].engine()) }
        return try stores.flatMap { try read($0.engine()) }
    }

    /// The IDs of the rows matching a plan, one compact list per store.
    func compactObjectIDs(matching plan: FetchPlan, in stores: [NSPersistentStore], for context: NSManagedObjectContext) throws -> [FetchedObjectIDs] {
        try reading(for: context) { try stores.map { try $0.engine().fetchCompactObjectIDs(plan) } }
    }

    /// The IDs of the rows matching a plan in one store, each with the values of `keyPaths`;
    /// nil when the store cannot read them in the same query.
    func compactObjectIDs(matching plan: FetchPlan, in store: NSPersistentStore, withValuesOf keyPaths: [String],
                          for context: NSManagedObjectContext) throws -> FetchedKeyedObjectIDs? {
        try reading(for: context) { try store.engine().fetchCompactObjectIDs(plan, withValuesOf: keyPaths) }
    }

    /// The number of rows matching a plan in all the stores.
    func count(matching plan: FetchPlan, in stores: [NSPersistentStore], for context: NSManagedObjectContext) throws -> Int {
        try reading(for: context) { try stores.reduce(0) { $0 + (try $1.engine().countRows(plan)) } }
    }

    /// The dictionary results of a plan in each store.
    func dictionaries(matching plan: FetchPlan, shape: DictionaryFetchShape, in stores: [NSPersistentStore],
                      for context: NSManagedObjectContext) throws -> [NSDictionary] {
        try reading(for: context) { try stores.flatMap { try $0.engine().fetchDictionaries(plan, shape: shape) } }
    }

    // MARK: Rows of objects

    /// The current row of an object, from the row cache or its store; nil when the row no longer
    /// exists.
    func row(of objectID: NSManagedObjectID, for context: NSManagedObjectContext) throws -> RowSnapshot? {
        let store = try store(of: objectID)
        let rowCache = rowCache(for: context)
        if let cached = rowCache?.row(for: objectID.identity), !isStale(cached, stalenessInterval: context.stalenessInterval) {
            CoreDataMetrics.rowCacheHits.increment()
            return cached
        }
        let row = try reading(for: context) { try store.engine().snapshot(for: objectID) }
        if let row {
            rowCache?.insert(CollectionOfOne(row))
            CoreDataMetrics.rowsFetched.increment()
        }
        return row
    }

    /// The current rows of objects, by identity, from the row cache and then from their stores,
    /// in one read per store. Objects whose rows no longer exist are left out.
    ///
    /// - Parameter usingCache: False to read every row from its store, as conflict detection must.
    func rows(of objectIDs: [NSManagedObjectID], usingCache: Bool = true, for context: NSManagedObjectContext) throws -> [ObjectIdentity: RowSnapshot] {
        var rows: [ObjectIdentity: RowSnapshot] = [:]
        let rowCache = rowCache(for: context)
        var unread = objectIDs.filter { !$0.isTemporaryID }
        if usingCache, let rowCache {
            unread.removeAll { objectID in
                guard let cached = rowCache.row(for: objectID.identity), !isStale(cached, stalenessInterval: context.stalenessInterval) else { return false }
                rows[objectID.identity] = cached
                return true
            }
            CoreDataMetrics.rowCacheHits.increment(by: rows.count)
        }
        for (store, storeIDs) in grouped(unread) {
            let read = try reading(for: context) { try store.engine().snapshots(for: storeIDs) }
            CoreDataMetrics.rowsFetched.increment(by: read.count)
            rowCache?.insert(read)
            for row in read { rows[row.objectIDValue.identity] = row }
        }
        return rows
    }

    /// The rows of objects as the row cache holds them, for comparison with their stored rows;
    /// nil rows for a context that reads frozen data and does not use the cache.
    func cachedRows(of objectIDs: [NSManagedObjectID], for context: NSManagedObjectContext) -> [RowSnapshot?] {
        let rowCache = rowCache(for: context)
        return objectIDs.map { rowCache?.row(for: $0.identity) }
    }

    /// The destination rows of a to-many relationship of several owners, by owner, in one query
    /// per store (two where a store reads the destinations' IDs first).
    func destinationRows(ofOwners owners: [NSManagedObjectID], relationship: NSRelationshipDescription,
                         for context: NSManagedObjectContext) throws -> [NSManagedObjectID: [RowSnapshot]] {
        var result: [NSManagedObjectID: [RowSnapshot]] = [:]
        for (store, storeOwners) in grouped(owners.filter { !$0.isTemporaryID }) {
            _ = try self.store(of: storeOwners[0])
            if let rows = try reading(for: context, { try store.engine().destinationRows(ofOwners: storeOwners, relationship: relationship) }) {
                result.merge(rows) { $1 }
                continue
            }
            let found = try reading(for: context) { try store.engine().destinationIDs(ofOwners: storeOwners, relationship: relationship) }
            let rows = try self.rows(of: Array(found.values.joined()), for: context)
            for owner in storeOwners {
                result[owner] = (found[owner] ?? []).compactMap { rows[$0.identity] }
            }
        }
        return result
    }

    /// The IDs of the destinations of a to-many relationship of an object, as its store has them.
    func destinationIDs(of objectID: NSManagedObjectID, relationship: NSRelationshipDescription,
                        for context: NSManagedObjectContext) throws -> [NSManagedObjectID] {
        let store = try store(of: objectID)
        return try reading(for: context) { try store.engine().destinationIDs(of: objectID, relationship: relationship) }
    }

    /// Whether a row may not fulfil a fault (see `RowSnapshot.isStale(stalenessInterval:)`),
    /// answered without looking up its store while no save has changed a row.
    func isStale(_ row: RowSnapshot, stalenessInterval: TimeInterval) -> Bool {
        guard stalenessInterval >= 0 || hasChangedRows.load(ordering: .acquiring) else { return false }
        return row.isStale(stalenessInterval: stalenessInterval)
    }

    // MARK: Stores of objects

    /// The store of an object ID, when it is one of this coordinator's: IDs of another
    /// coordinator's stores must not reach that coordinator's connections unsynchronized.
    private func store(of objectID: NSManagedObjectID) throws -> NSPersistentStore {
        guard let store = objectID.persistentStore, store.persistentStoreCoordinator === self else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "The object ID \(objectID) does not belong to a store of this context's coordinator.")
        }
        return store
    }

    /// Object IDs by store, in order.
    private func grouped(_ objectIDs: [NSManagedObjectID]) -> [(NSPersistentStore, [NSManagedObjectID])] {
        var groups: [(NSPersistentStore, [NSManagedObjectID])] = []
        for objectID in objectIDs {
            guard let store = objectID.persistentStore else { continue }
            if let index = groups.firstIndex(where: { $0.0 === store }) {
                groups[index].1.append(objectID)
            } else {
                groups.append((store, [objectID]))
            }
        }
        return groups
    }
}
