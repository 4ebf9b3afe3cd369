// Batched fetching: the lazy `BatchedFetchResults` for result sets too large to hold as objects.
extension NSManagedObjectContext {
    /// Fetches the objects a request matches as a lazy collection that makes them one batch of
    /// `fetchBatchSize` objects at a time (256 when the request sets none).
    ///
    /// This method is not part of Apple's API: on Apple platforms, `fetch(_:)` with a
    /// `fetchBatchSize` already returns such a collection, bridged to a Swift array. Only the IDs
    /// of the matching rows are fetched at first, twelve bytes each. When unsaved changes must be
    /// overlaid, several stores answer, or the context is a child context, the results are those
    /// of `fetch(_:)`, made at once.
    ///
    /// - Parameter request: A request with the managed object result type.
    /// - Returns: The matching objects, in the request's order.
    /// - Throws: The errors `fetch(_:)` throws, and an error when the request asks for another
    ///   result type or its entity's objects are not `ResultType`.
    public func fetchBatched<ResultType>(_ request: NSFetchRequest<ResultType>) throws -> BatchedFetchResults<ResultType> {
        try performAndWait { () throws -> BatchedFetchResults<ResultType> in
            let coordinator = try requireCoordinator()
            let plan = try fetchPlan(for: request, model: coordinator.managedObjectModel)
            guard request.resultType == .managedObjectResultType else {
                throw CoreDataError.invalidRequest("fetchBatched(_:) returns managed objects; use fetch(_:) for other result types.")
            }
            for entity in plan.entities where !(objectClass(for: entity) is ResultType.Type) {
                throw CoreDataError.invalidRequest("The objects of \(entity.entityName) are \(objectClass(for: entity)), not \(ResultType.self).")
            }
            let stores = coordinator.stores(holding: plan.entities, affected: request.affectedStores)
            let pending = request.includesPendingChanges ? pendingObjects(of: plan.entities) : []
            guard pending.isEmpty && stores.count <= 1 && parent == nil else {
                let objects = try fetchImplementation(request).compactMap { $0 as? NSManagedObject }
                return BatchedFetchResults(storage: BatchedFetchStorage(context: self, objects: objects, batchSize: request.fetchBatchSize))
            }
            // Objects made later are made of the entity's class, checked above; only objects
            // registered earlier with another class (`NSManagedObject(entity:insertInto:)`) can
            // fail to be `ResultType`.
            let entities = Set(plan.entities.map(ObjectIdentifier.init))
            if let stray = registeredObjects.first(where: { entities.contains(ObjectIdentifier($0.entity)) && !($0 is ResultType) }) {
                throw CoreDataError.invalidRequest("The registered object \(stray.objectID) of \(stray.entity.entityName) is \(type(of: stray)), not \(ResultType.self).")
            }
            let objectIDs = try requireCoordinator().compactObjectIDs(matching: plan, in: stores, for: self)
            return BatchedFetchResults(storage: BatchedFetchStorage(context: self, objectIDs: objectIDs, batchSize: request.fetchBatchSize))
        }
    }

    /// The registered objects for IDs, in order, with the rows of those that are faults without a
    /// row read in one query per store.
    func objectsLoadingRows(for objectIDs: [NSManagedObjectID]) -> [NSManagedObject] {
        // Rows that cannot be read now are read, and their error reported, when the faults fire.
        let rows = (try? currentRows(of: objectIDs.filter(needsRow))) ?? [:]
        var loaded: [ObjectIdentity: NSManagedObject] = [:]
        for object in register(Array(rows.values), realize: false) {
            loaded[object.objectID.identity] = object
        }
        return objectIDs.map { loaded[$0.identity] ?? object(with: $0) }
    }
}
