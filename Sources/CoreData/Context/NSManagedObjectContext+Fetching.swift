// Fetching: requests resolved into plans, executed by the stores, registered as (faulted) objects,
// and overlaid with the context's unsaved changes when the request includes pending changes.
extension NSManagedObjectContext {
    func fetchImplementation<T>(_ request: NSFetchRequest<T>) throws -> [T] {
        CoreDataMetrics.fetches.increment()
        let coordinator = try requireCoordinator()
        let plan = try fetchPlan(for: request, model: coordinator.managedObjectModel)
        let stores = coordinator.stores(holding: plan.entities, affected: request.affectedStores)
        let pending = request.includesPendingChanges ? pendingObjects(of: plan.entities) : []

        switch request.resultType {
        case .countResultType:
            return try cast([NSNumber(value: count(plan, stores: stores, pending: pending))], request)
        case .dictionaryResultType:
            return try cast(dictionaries(plan, stores: stores, request: request), request)
        case .managedObjectIDResultType where readsStoresDirectly(plan, stores: stores, pending: pending):
            return try cast(coordinator.objectIDs(matching: plan, in: stores, for: self), request)
        default:
            break
        }
        let objects = try managedObjects(matching: plan, stores: stores, pending: pending, realize: !request.returnsObjectsAsFaults,
                                         includesValues: request.includesPropertyValues, batchSize: request.fetchBatchSize,
                                         refreshes: request.shouldRefreshRefetchedObjects)
        if request.resultType == .managedObjectIDResultType {
            return try cast(objects.map(\.objectID), request)
        }
        if let keyPaths = request.relationshipKeyPathsForPrefetching, !keyPaths.isEmpty {
            try prefetch(keyPaths, for: objects, entity: plan.entity)
        }
        return try cast(objects, request)
    }

    func countImplementation<T>(for request: NSFetchRequest<T>) throws -> Int {
        let coordinator = try requireCoordinator()
        let plan = try fetchPlan(for: request, model: coordinator.managedObjectModel)
        let stores = coordinator.stores(holding: plan.entities, affected: request.affectedStores)
        let pending = request.includesPendingChanges ? pendingObjects(of: plan.entities) : []
        return try count(plan, stores: stores, pending: pending)
    }

    // MARK: Plans

    /// Resolves a request's entity and checks what can be checked before touching a store.
    func fetchPlan<T>(for request: NSFetchRequest<T>, model: NSManagedObjectModel) throws -> FetchPlan {
        let named = request.entity?.name ?? request.entityName
        guard let name = named, let entity = model.entitiesByName[name] else {
            throw CoreDataError.invalidRequest(
                named.map { "The fetch request names the entity '\($0)', which the model does not have." }
                    ?? "A fetch request must have an entity."
            )
        }
        if let error = request.predicate?.parseError {
            throw error
        }
        try entity.checkKeyPaths(readBy: request.predicate, sortDescriptors: request.sortDescriptors ?? [])
        if request.entity == nil {
            // As Apple's context does, so that property names in the request read back as the
            // entity's descriptions.
            request.entity = entity
        }
        if !(request.propertiesToGroupBy ?? []).isEmpty && request.resultType != .dictionaryResultType {
            throw CoreDataError.invalidRequest("Invalid fetch request: propertiesToGroupBy requires the dictionary result type (.dictionaryResultType).")
        }
        let entities = request.includesSubentities ? entity.selfAndDescendants : [entity]
        return FetchPlan(
            entity: entity,
            entities: entities,
            predicate: try resolvingFetchRequestExpressions(of: request, entity: entity, entities: entities),
            sortDescriptors: request.sortDescriptors ?? [],
            limit: max(request.fetchLimit, 0),
            offset: max(request.fetchOffset, 0)
        )
    }

    /// Objects of the given entities that have unsaved changes in this context.
    func pendingObjects(of entities: [NSEntityDescription]) -> [NSManagedObject] {
        guard !changedObjects.isEmpty else { return [] }
        let wanted = Set(entities.map(ObjectIdentifier.init))
        // Objects whose rows are gone (deleted by a merged save) change nothing a store answers.
        return changedObjects.filter {
            wanted.contains(ObjectIdentifier($0.entity)) && ($0.hasChanges || $0.flags.contains(.discarded)) && !$0.flags.contains(.inaccessible)
        }
    }

    /// The IDs of the objects a request matches, each with the values of `keyPaths`, read by one
    /// query of the request's one store without making objects; nil when that query alone would
    /// not give the request's results (a parent context, unsaved changes of its entities,
    /// several stores, a predicate with blocks) or the store cannot read the values in it.
    func fetchCompactObjectIDs(_ request: NSFetchRequest<NSManagedObject>, withValuesOf keyPaths: [String]) throws -> FetchedKeyedObjectIDs? {
        let coordinator = try requireCoordinator()
        let plan = try fetchPlan(for: request, model: coordinator.managedObjectModel)
        let stores = coordinator.stores(holding: plan.entities, affected: request.affectedStores)
        let pending = request.includesPendingChanges ? pendingObjects(of: plan.entities) : []
        guard readsStoresDirectly(plan, stores: stores, pending: pending), let store = stores.first else { return nil }
        return try coordinator.compactObjectIDs(matching: plan, in: store, withValuesOf: keyPaths, for: self)
    }

    // MARK: Executing

    /// Whether a plan's results are exactly what its one store answers: no parent context, no
    /// unsaved changes to overlay, no other store, no block for the context to evaluate.
    private func readsStoresDirectly(_ plan: FetchPlan, stores: [NSPersistentStore], pending: [NSManagedObject]) -> Bool {
        parent == nil && pending.isEmpty && stores.count <= 1 && !evaluatesBlocks(plan, stores: stores)
    }

    /// The objects a plan matches, overlaid with `pending` (the unsaved changes to include): read
    /// through the parent context, or from the stores.
    func managedObjects(matching plan: FetchPlan, stores: [NSPersistentStore], pending: [NSManagedObject], realize: Bool,
                        includesValues: Bool, batchSize: Int = 0, refreshes: Bool = false) throws -> [NSManagedObject] {
        if let parent {
            let parentPlan = pending.isEmpty ? plan : storePlanForOverlay(plan, pending: pending, storeCount: 1)
            let objects = register(try parent.rowsForChild(matching: parentPlan), realize: realize, refreshes: refreshes)
            return pending.isEmpty ? objects : try overlay(objects, with: pending, plan: plan)
        }
        if evaluatesBlocks(plan, stores: stores) {
            return try objectsMatchingBlocks(plan, stores: stores, pending: pending)
        }
        return try fetchObjects(plan, stores: stores, pending: pending, inMemory: !pending.isEmpty || stores.count > 1, realize: realize,
                                includesValues: includesValues, batchSize: batchSize, refreshes: refreshes)
    }

    private func fetchObjects(_ plan: FetchPlan, stores: [NSPersistentStore], pending: [NSManagedObject], inMemory: Bool, realize: Bool,
                              includesValues: Bool, batchSize: Int = 0, refreshes: Bool = false) throws -> [NSManagedObject] {
        let storePlan = inMemory ? storePlanForOverlay(plan, pending: pending, storeCount: stores.count) : plan
        let coordinator = try requireCoordinator()
        var objects: [NSManagedObject]
        if includesValues && (batchSize == 0 || inMemory) {
            let rows = try coordinator.rows(matching: storePlan, in: stores, for: self)
            objects = register(rows, realize: realize, refreshes: refreshes)
        } else {
            let identifiers = try coordinator.compactObjectIDs(matching: storePlan, in: stores, for: self)
            objects = identifiers.flatMap { batchedFaults(FaultBatch(objectIDs: $0, size: batchSize), refreshes: refreshes) }
        }
        guard inMemory else { return objects }
        return try overlay(objects, with: pending, plan: plan)
    }

    /// Whether a plan's predicate calls blocks and only in-memory stores answer: those stores
    /// evaluate their rows, which a block cannot read, so the context evaluates the predicate
    /// against the managed objects instead (a SQLite store refuses blocks, as Apple's does).
    private func evaluatesBlocks(_ plan: FetchPlan, stores: [NSPersistentStore]) -> Bool {
        guard let predicate = plan.predicate, predicate.node.callsBlocks else { return false }
        return stores.allSatisfy { $0.type == NSInMemoryStoreType }
    }

    /// The results of a predicate that calls blocks (see `evaluatesBlocks`): every object of the
    /// entities, evaluated here, then sorted and paged.
    private func objectsMatchingBlocks(_ plan: FetchPlan, stores: [NSPersistentStore], pending: [NSManagedObject]) throws -> [NSManagedObject] {
        let everything = FetchPlan(entity: plan.entity, entities: plan.entities, predicate: nil, sortDescriptors: [], limit: 0, offset: 0)
        let candidates = try fetchObjects(everything, stores: stores, pending: pending, inMemory: true, realize: true, includesValues: true)
        var matching = try candidates.filter { try matches($0, plan.predicate) }
        if !plan.sortDescriptors.isEmpty {
            matching = try SortOrdering.sorted(matching, by: plan.sortDescriptors)
        }
        return plan.page(of: matching)
    }

    /// One object per fetched ID, each a fault that loads its window of the batch when fired.
    /// With `refreshes`, objects already holding values become faults again (keeping their
    /// unsaved changes), so that they read the store's current values.
    func batchedFaults(_ batch: FaultBatch, refreshes: Bool) -> [NSManagedObject] {
        (0..<batch.objectIDs.count).map { index in
            let object = object(with: batch.objectIDs.objectID(at: index))
            if refreshes && !object.isFault { refreshImplementation(object, mergeChanges: true) }
            if object.isFault && object.snapshot == nil { object.faultBatch = (batch, UInt32(index)) }
            return object
        }
    }

    /// The part of a plan the stores run when unsaved changes are overlaid in memory. With one
    /// store and a limit, the store returns only the first `offset + limit` rows plus one per
    /// changed object that could leave the results, which is all the overlay can need.
    private func storePlanForOverlay(_ plan: FetchPlan, pending: [NSManagedObject], storeCount: Int) -> FetchPlan {
        guard plan.limit > 0, storeCount == 1 else { return plan.withoutPaging }
        let leaving = pending.filter { !$0.isInserted }.count
        return FetchPlan(entity: plan.entity, entities: plan.entities, predicate: plan.predicate, sortDescriptors: plan.sortDescriptors,
                         limit: plan.offset.saturatingAdding(plan.limit).saturatingAdding(leaving), offset: 0)
    }

    /// The number of matching objects. With unsaved changes, a parent context or several stores,
    /// the matching IDs are adjusted by the changed objects, without registering or loading any row.
    private func count(_ plan: FetchPlan, stores: [NSPersistentStore], pending: [NSManagedObject]) throws -> Int {
        if readsStoresDirectly(plan, stores: stores, pending: pending) {
            return try requireCoordinator().count(matching: plan, in: stores, for: self)
        }
        let stored: [NSManagedObjectID]
        if let parent {
            stored = try parent.rowsForChild(matching: plan.withoutPaging).map(\.objectID)
        } else if evaluatesBlocks(plan, stores: stores) {
            stored = try objectsMatchingBlocks(plan.withoutPaging, stores: stores, pending: []).map(\.objectID)
        } else {
            stored = try requireCoordinator().objectIDs(matching: plan.withoutPaging, in: stores, for: self)
        }
        var matching = Set(stored.map(\.identity))
        var newMatches = 0
        for object in pending {
            let identity = object.identifier?.identity
            if object.isDeleted || object.flags.contains(.discarded) {
                if let identity { matching.remove(identity) }
                continue
            }
            let isMatch = try matches(object, plan.predicate)
            if object.isInserted {
                if isMatch { newMatches += 1 }
            } else if let identity {
                if isMatch { matching.insert(identity) } else { matching.remove(identity) }
            }
        }
        let total = matching.count + newMatches
        let afterOffset = max(total - plan.offset, 0)
        return plan.limit > 0 ? min(afterOffset, plan.limit) : afterOffset
    }

    /// Registers fetched rows: one object per ID, faults holding their row unless `realize`.
    /// With `refreshes`, objects already registered with values take the fetched row's values,
    /// keeping their unsaved changes (`shouldRefreshRefetchedObjects`).
    ///
    /// The rows are registered under one lock of the registry; objects that were registered
    /// already take their rows after it, since that may release objects (whose `deinit` takes it).
    func register(_ rows: [RowSnapshot], realize: Bool, refreshes: Bool = false) -> [NSManagedObject] {
        var objects: [NSManagedObject] = []
        objects.reserveCapacity(rows.count)
        var registeredBefore: [Int] = []
        registry.withLock { registered in
            // The class and layout of the rows' entity, looked up again only when the entity changes
            // (compared by identity: retaining an entity takes the runtime's slow path).
            var lastEntity: ObjectIdentifier?
            var lastClass: NSManagedObject.Type?
            var lastLayout: EntityLayout?
            for (position, row) in rows.enumerated() {
                let entity = row.objectIDValue.entity
                if ObjectIdentifier(entity) != lastEntity {
                    lastEntity = ObjectIdentifier(entity)
                    lastClass = objectClass(for: entity)
                    lastLayout = entity.layout
                }
                let identity = row.identity(inHierarchyOf: lastLayout.unsafelyUnwrapped)
                // One hash lookup finds the registered object or makes room for a new one; a new
                // object's ID is made from its row when asked for.
                let (object, isNew) = registered.resolve(identity, expecting: rows.count - position) { existing in
                    existing ?? makeUnregisteredFault(of: entity, snapshot: row, class: lastClass)
                }
                if isNew {
                    if retainsRegisteredObjects { retainedObjects.append(object) }
                } else {
                    registeredBefore.append(position)
                }
                objects.append(object)
            }
        }
        for position in registeredBefore {
            let object = objects[position]
            if object.isFault {
                object.snapshot = rows[position]
            } else if refreshes {
                refreshImplementation(object, mergeChanges: true, snapshot: rows[position])
            }
        }
        if realize {
            for (object, row) in zip(objects, rows) where object.isFault { object.materialize(from: row) }
        }
        reportRegistrations()
        return objects
    }

    /// Applies unsaved changes to store results: deleted objects leave, changed and inserted
    /// objects are tested against the predicate in memory, then the results are sorted and paged.
    private func overlay(_ fetched: [NSManagedObject], with pending: [NSManagedObject], plan: FetchPlan) throws -> [NSManagedObject] {
        var seen = Set<ObjectIdentifier>()
        var result: [NSManagedObject] = []
        for object in fetched where seen.insert(ObjectIdentifier(object)).inserted {
            guard !object.isDeleted, !object.flags.contains(.discarded) else { continue }
            if try !object.hasChanges || matches(object, plan.predicate) { result.append(object) }
        }
        for object in pending where !seen.contains(ObjectIdentifier(object)) {
            guard object.isInserted || object.isUpdated else { continue }
            if try matches(object, plan.predicate) { result.append(object) }
        }
        if !plan.sortDescriptors.isEmpty {
            result = try SortOrdering.sorted(result, by: plan.sortDescriptors)
        }
        return plan.page(of: result)
    }

    private func matches(_ object: NSManagedObject, _ predicate: NSPredicate?) throws -> Bool {
        guard let predicate else { return true }
        return try predicate.evaluate(with: object, variables: [:])
    }

    /// Dictionary results, which reflect the stores only: they ignore unsaved changes and register
    /// no objects, as Apple documents. To-one relationships appear as object IDs. With several
    /// stores, each store groups its own rows; the results are then sorted and paged together.
    private func dictionaries<T>(_ plan: FetchPlan, stores: [NSPersistentStore], request: NSFetchRequest<T>) throws -> [NSDictionary] {
        let shape = try DictionaryFetchShape(request: request, entity: plan.entity)
        let storePlan = stores.count > 1 ? plan.withoutPaging : plan
        var results = try requireCoordinator().dictionaries(matching: storePlan, shape: shape, in: stores, for: self)
        guard stores.count > 1 else { return results }
        if shape.returnsDistinctResults {
            results = Array(NSOrderedSet(array: results).array.compactMap { $0 as? NSDictionary })
        }
        if !plan.sortDescriptors.isEmpty {
            results = try SortOrdering.sorted(results, by: plan.sortDescriptors)
        }
        return plan.page(of: results)
    }

    /// Casts results to the request's result type; a mismatch is reported, never trapped on.
    private func cast<T, Element>(_ results: [Element], _ request: NSFetchRequest<T>) throws -> [T] {
        if let typed = results as? [T] { return typed }
        throw CoreDataError.invalidRequest(
            "The results of the fetch request for '\(request.entityName ?? "?")' are not of type \(T.self); check the entity's managedObjectClassName and the request's resultType."
        )
    }

    // MARK: Faults

    /// Whether a row may not fulfil a fault (see `RowSnapshot.isStale(stalenessInterval:)`).
    func isStale(_ snapshot: RowSnapshot) -> Bool {
        // Every fault asks: without a parent, the coordinator is used unretained (the check runs no
        // code of the app, and retaining the coordinator takes the runtime's slow path, as it has
        // weak references).
        if parent == nil, let coordinator = ownCoordinator.map(Unmanaged.passUnretained) {
            return coordinator._withUnsafeGuaranteedRef { $0.isStale(snapshot, stalenessInterval: stalenessInterval) }
        }
        return persistentStoreCoordinator?.isStale(snapshot, stalenessInterval: stalenessInterval) ?? snapshot.isStale(stalenessInterval: stalenessInterval)
    }

    /// The row of a fault, from its store.
    ///
    /// A fault from a fetch made without property values loads the rows of its whole window of
    /// that fetch in one query, and hands them to the other faults of the window.
    func loadFault(_ object: NSManagedObject) -> FaultLoad {
        guard parent != nil || !object.objectID.isTemporaryID else { return .missing }
        do {
            if let (batch, index) = object.faultBatch {
                object.faultBatch = nil
                return try loadWindow(of: batch, containing: Int(index), for: object)
            }
            return try loadSnapshot(for: object.objectID).map(FaultLoad.row) ?? .missing
        } catch {
            return .failed(error)
        }
    }

    private func loadWindow(of batch: FaultBatch, containing index: Int, for object: NSManagedObject) throws -> FaultLoad {
        let window = batch.objectIDs.objectIDs(in: batch.window(containing: index))
        let rows = try requireCoordinator().rows(of: window, for: self)
        var own: RowSnapshot?
        for row in rows.values {
            if row.objectIDValue.identity == object.identity { own = row; continue }
            guard let neighbour = registry.object(for: row.objectIDValue.identity), neighbour.isFault, neighbour.snapshot == nil else { continue }
            neighbour.snapshot = row
            neighbour.faultBatch = nil
        }
        return own.map(FaultLoad.row) ?? .missing
    }

    /// The current row of an object from its parent context, the coordinator's row cache or the
    /// store; nil when the row no longer exists.
    func loadSnapshot(for objectID: NSManagedObjectID) throws -> RowSnapshot? {
        if let parent { return try parent.rowsForChild(of: [objectID]).first }
        return try requireCoordinator().row(of: objectID, for: self)
    }

    /// A fault whose row is gone gets nil values; when `shouldHandleInaccessibleFault` agrees
    /// (by default, with `shouldDeleteInaccessibleFaults`) it becomes a deleted object, discarded
    /// at the next save, as Apple documents.
    func handleInaccessibleFault(_ object: NSManagedObject, triggeredBy property: NSPropertyDescription?) {
        object.materializeEmpty()
        guard shouldHandleInaccessibleFault(object, for: object.objectID, triggeredByProperty: property) else { return }
        object.flags.insert([.deleted, .deletePropagated, .inaccessible])
        changedObjects.append(object)
    }

    /// The destinations of an unloaded to-many relationship, registered in this context: the
    /// prefetched ones, or the rows read with the relationship in one query (never one query per
    /// destination).
    func loadDestinations(of object: NSManagedObject, slot: Int) -> [NSManagedObject] {
        if !prefetched.isEmpty, let prefetchedObjects = prefetched.takeDestinations(of: object.objectID.identity, slot: slot) {
            return prefetchedObjects
        }
        guard parent != nil || !object.objectID.isTemporaryID, let relationship = object.layout.slots[slot].relationship else { return [] }
        do {
            let rows = try destinationRows(ofOwners: [object.objectID], relationship: relationship)
            return register(rows[object.objectID] ?? [], realize: false)
        } catch {
            ReadErrorLog.shared.report(error, reading: "the \(relationship.name) of \(object.objectID)")
            return []
        }
    }

    /// The destination rows of a to-many relationship of several owners, by owner: read through
    /// the parent context, or from the stores.
    func destinationRows(ofOwners owners: [NSManagedObjectID], relationship: NSRelationshipDescription) throws -> [NSManagedObjectID: [RowSnapshot]] {
        if let parent { return try parent.destinationRowsForChild(ofOwners: owners, relationship: relationship) }
        return try requireCoordinator().destinationRows(ofOwners: owners, relationship: relationship, for: self)
    }

    /// The current rows of objects, by identity: from the parent context, or from the
    /// coordinator's row cache and then the stores. Objects whose rows no longer exist are left out.
    ///
    /// - Parameter usingCache: False to read every row from its store, as conflict detection must.
    func currentRows(of objectIDs: [NSManagedObjectID], usingCache: Bool = true) throws -> [ObjectIdentity: RowSnapshot] {
        guard let parent else { return try requireCoordinator().rows(of: objectIDs, usingCache: usingCache, for: self) }
        var rows: [ObjectIdentity: RowSnapshot] = [:]
        for row in try parent.rowsForChild(of: objectIDs) { rows[row.objectIDValue.identity] = row }
        return rows
    }

    /// Whether the object of an ID still has to read its row: it is not registered, or is a fault
    /// without one.
    func needsRow(_ objectID: NSManagedObjectID) -> Bool {
        guard let registered = registry.object(for: objectID.identity) else { return true }
        return registered.isFault && registered.snapshot == nil
    }

    /// The IDs of the destinations of a to-many relationship as the store has them.
    func destinationIDs(of object: NSManagedObject, slot: Int) -> [NSManagedObjectID] {
        guard let relationship = object.layout.slots[slot].relationship, parent != nil || !object.objectID.isTemporaryID else { return [] }
        do {
            if parent != nil {
                return (try destinationRows(ofOwners: [object.objectID], relationship: relationship)[object.objectID] ?? []).map(\.objectID)
            }
            return try requireCoordinator().destinationIDs(of: object.objectID, relationship: relationship, for: self)
        } catch {
            ReadErrorLog.shared.report(error, reading: "the \(relationship.name) of \(object.objectID)")
            return []
        }
    }

    /// The value of a fetched property: the results of its request, with `$FETCH_SOURCE` bound
    /// to the object and `$FETCHED_PROPERTY` to the property's description.
    func evaluate(_ property: NSFetchedPropertyDescription, for object: NSManagedObject) -> Any? {
        guard let template = property.fetchRequest, let request = template.copy() as? NSFetchRequest<NSFetchRequestResult> else { return [] }
        request.predicate = template.predicate?.withSubstitutionVariables(["FETCH_SOURCE": object, "FETCHED_PROPERTY": property])
        do {
            return try fetch(request)
        } catch {
            ReadErrorLog.shared.report(error, reading: "the fetched property \(property.name) of \(object.objectID)")
            return []
        }
    }
}

extension FetchPlan {
    /// The same plan without offset and limit, for results that are paged in memory.
    var withoutPaging: FetchPlan {
        FetchPlan(entity: entity, entities: entities, predicate: predicate, sortDescriptors: sortDescriptors, limit: 0, offset: 0)
    }
}
