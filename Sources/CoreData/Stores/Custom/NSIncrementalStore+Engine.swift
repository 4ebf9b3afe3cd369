/// An incremental store as the coordinator uses every store: each call turns into the calls of
/// Apple's incremental-store contract, made with the context whose request the coordinator runs.
extension NSIncrementalStore: PersistentStoreEngine, ReferenceObjectNaming {
    package func load(model: NSManagedObjectModel) throws {
        try loadMetadata()
        var metadata = storedMetadata
        if metadata[NSStoreUUIDKey] == nil, let url {
            metadata[NSStoreUUIDKey] = String(describing: Self.identifierForNewStore(at: url))
        }
        if metadata[NSStoreTypeKey] == nil {
            metadata[NSStoreTypeKey] = type
        }
        storedMetadata = metadata
        metadataChanged = false
        identifier = metadata[NSStoreUUIDKey] as? String
        StoreIdentityRegistry.shared.reportRegistrations(toStoreIdentity: identityNumber)
    }

    package func unload() {
        nodeDestinations = [:]
    }

    /// Passes a context's registrations on to the subclass, one call of each kind.
    package func contextDidChangeRegistrations(registered: [NSManagedObjectID], unregistered: [NSManagedObjectID]) {
        if !registered.isEmpty { managedObjectContextDidRegisterObjects(with: registered) }
        if !unregistered.isEmpty { managedObjectContextDidUnregisterObjects(with: unregistered) }
    }

    // MARK: Fetching

    /// Asks the subclass for the objects of the plan's entity, then selects, sorts and pages
    /// their values in memory, whatever the subclass did with the request.
    package func fetchRows(_ plan: FetchPlan) throws -> [RowSnapshot] {
        let rows = try resultIDs(of: plan).compactMap { try snapshot(for: $0) }
        return try plan.evaluate(on: rows, of: self)
    }

    /// The IDs of the plan's results; without a predicate or an order to apply, straight from
    /// the subclass's answer, asking for no values (as counts and fetches of IDs or faults do).
    package func fetchObjectIDs(_ plan: FetchPlan) throws -> [NSManagedObjectID] {
        guard plan.predicate == nil, plan.sortDescriptors.isEmpty else { return try fetchRows(plan).map(\.objectID) }
        let wanted = Set(plan.entities.map(ObjectIdentifier.init))
        return plan.page(of: try resultIDs(of: plan).filter { wanted.contains(ObjectIdentifier($0.entity)) })
    }

    /// The IDs the subclass gives for a fetch of the plan's entity.
    private func resultIDs(of plan: FetchPlan) throws -> [NSManagedObjectID] {
        let request = NSFetchRequest<NSFetchRequestResult>()
        request.entity = plan.entity
        request.predicate = plan.predicate
        request.sortDescriptors = plan.sortDescriptors
        request.includesSubentities = plan.entities.count > 1
        request.affectedStores = [self]
        return try Self.objectIDs(in: execute(request, with: requestingContext()))
    }

    package func snapshot(for objectID: NSManagedObjectID) throws -> RowSnapshot? {
        let node = try newValuesForObject(with: objectID, with: try requestingContext())
        return try row(of: objectID, from: node)
    }

    package func destinationIDs(of objectID: NSManagedObjectID, relationship: NSRelationshipDescription) throws -> [NSManagedObjectID] {
        if let listed = nodeDestinations[objectID.identity]?[relationship.name] { return listed }
        let value = try newValue(forRelationship: relationship, forObjectWith: objectID, with: try requestingContext())
        return try Self.destinations(value, of: relationship)
    }

    // MARK: Saving

    /// Gives the new objects their permanent IDs (``obtainPermanentIDs(for:)``), then hands the
    /// subclass the save as an `NSSaveChangesRequest`: it writes at once, having no transaction.
    package func beginSave(_ changes: StoreSaveChanges) throws -> StoreSaveOutcome {
        let context = try requestingContext()
        if let conflict = versionConflict(in: changes, context: context) {
            return .conflict(conflict)
        }
        let objects = changes.objects
        try assignPermanentIDs(to: objects.inserted, in: context)
        func set(_ objects: [NSManagedObject]) -> Set<NSManagedObject>? { objects.isEmpty ? nil : Set(objects) }
        let request = NSSaveChangesRequest(inserted: set(objects.inserted), updated: set(objects.updated),
                                           deleted: set(objects.deleted), locked: set(objects.locked))
        _ = try execute(request, with: context)
        nodeDestinations = [:]
        metadataChanged = false
        return .written(StoreSaveResult(permanentIDs: objects.inserted.map(\.objectID)))
    }

    package func finishSave(committing: Bool) throws {}

    /// The first updated or locked object whose node has a newer version than the context read
    /// (or is gone), or deleted object whose node has: Apple's coordinator detects conflicts by
    /// the nodes' versions. A node the store cannot give counts as gone. Only a newer version
    /// conflicts, so that a store that never changes its versions never conflicts.
    private func versionConflict(in changes: StoreSaveChanges, context: NSManagedObjectContext) -> VersionConflict? {
        func storedVersion(of change: RowChange) -> Int64? {
            (try? newValuesForObject(with: change.objectID, with: context)).map { Int64(truncatingIfNeeded: $0.version) }
        }
        for change in changes.updates + changes.lockChecks {
            let stored = storedVersion(of: change)
            if stored.map({ $0 > change.version }) ?? true {
                return VersionConflict(objectID: change.objectID, readVersion: change.version, storedVersion: stored)
            }
        }
        for change in changes.deletes {
            if let stored = storedVersion(of: change), stored > change.version {
                return VersionConflict(objectID: change.objectID, readVersion: change.version, storedVersion: stored)
            }
        }
        return nil
    }

    package var writesWithoutTransaction: Bool { true }

    // MARK: Turning the subclass's answers into rows

    /// The row of an object from its node: attributes and to-one relationships in the row (a
    /// to-one relationship the node leaves out is asked for at once), to-many destinations kept
    /// for when the relationship is read.
    private func row(of objectID: NSManagedObjectID, from node: NSIncrementalStoreNode) throws -> RowSnapshot {
        let layout = objectID.entity.layout
        let row = RowSnapshot.make(plan: layout.storagePlan, objectID: objectID.value, version: Int64(truncatingIfNeeded: node.version),
                                   generation: rowChanges.currentGeneration)
        var listed: [String: [NSManagedObjectID]] = [:]
        for slot in layout.slots {
            switch slot.kind {
            case .attribute(let attribute):
                row.setValue(Self.value(node.value(for: attribute)), atSlot: slot.index)
            case .toOne(let relationship):
                let value = node.hasValue(for: relationship)
                    ? node.value(for: relationship)
                    : try newValue(forRelationship: relationship, forObjectWith: objectID, with: try requestingContext())
                row.setValue(Self.value(value) as? NSManagedObjectID, atSlot: slot.index)
            case .toMany(let relationship):
                guard node.hasValue(for: relationship) else { continue }
                listed[relationship.name] = try Self.destinations(node.value(for: relationship), of: relationship)
            }
        }
        nodeDestinations[objectID.identity] = listed.isEmpty ? nil : listed
        return row
    }

    /// A node's value with `NSNull` read as none.
    private static func value(_ value: Any?) -> Any? {
        value is NSNull ? nil : value
    }

    /// The IDs in a fetch's results: managed objects or object IDs.
    private static func objectIDs(in results: Any) throws -> [NSManagedObjectID] {
        guard let results = results as? [Any] else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "An incremental store returned \(Swift.type(of: results)) for a fetch request, not an array.")
        }
        return try results.map { result in
            if let objectID = result as? NSManagedObjectID { return objectID }
            if let object = result as? NSManagedObject { return object.objectID }
            throw CoreDataError.make(NSPersistentStoreOperationError, "An incremental store returned \(Swift.type(of: result)) among a fetch's results, not a managed object or an object ID.")
        }
    }

    /// The destinations of a to-many relationship as the subclass gives them: a set, an ordered
    /// set or an array of IDs (or of managed objects).
    private static func destinations(_ value: Any?, of relationship: NSRelationshipDescription) throws -> [NSManagedObjectID] {
        let elements: [Any]
        switch value {
        case nil, is NSNull: elements = []
        case let set as NSSet: elements = set.allObjects
        case let ordered as NSOrderedSet: elements = ordered.array
        case let array as [Any]: elements = array
        case let set as Set<NSManagedObjectID>: elements = Array(set)
        default:
            throw CoreDataError.make(NSPersistentStoreOperationError, "An incremental store gave \(Swift.type(of: value!)) for the to-many relationship '\(relationship.name)', not a set or an array of object IDs.")
        }
        return try objectIDs(in: elements)
    }
}
