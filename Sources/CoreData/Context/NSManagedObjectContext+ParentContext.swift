// Nested contexts, the parent's side: a child context reads rows through its parent, which answers
// on its own queue from its registered objects (unsaved changes included) and, for the rest, from
// its own parent or its stores.
extension NSManagedObjectContext {
    /// The rows a child sees for the objects a plan matches: the parent's fetch, overlaid with the
    /// parent's unsaved changes, in the plan's order.
    func rowsForChild(matching plan: FetchPlan) throws -> [RowSnapshot] {
        try performAndWait {
            let coordinator = try requireCoordinator()
            let stores = coordinator.stores(holding: plan.entities, affected: nil)
            let objects = try managedObjects(matching: plan, stores: stores, pending: pendingObjects(of: plan.entities), realize: false, includesValues: true)
            return try rowsForChild(of: objects.map(\.objectID))
        }
    }

    /// The rows a child sees for object IDs, in order: the parent's current state of each object.
    /// Objects the parent has deleted, and rows that do not exist, are left out.
    func rowsForChild(of objectIDs: [NSManagedObjectID]) throws -> [RowSnapshot] {
        try performAndWait {
            var rows: [RowSnapshot?] = []
            rows.reserveCapacity(objectIDs.count)
            var unknown: [NSManagedObjectID] = []
            for objectID in objectIDs {
                let state = registry.object(for: objectID.identity).map(childRowState) ?? .unknown
                if case .row(let row) = state { rows.append(row) } else { rows.append(nil) }
                if case .unknown = state { unknown.append(objectID) }
            }
            guard !unknown.isEmpty else { return rows.compactMap { $0 } }
            let loaded = try currentRows(of: unknown)
            return zip(objectIDs, rows).compactMap { objectID, row in
                row ?? loaded[objectID.identity]
            }
        }
    }

    /// The destination rows of a to-many relationship of several owners, as a child sees them:
    /// owners whose relationship the parent has loaded answer from it, the others from the
    /// parent's source, with the destinations the parent holds in its current state.
    func destinationRowsForChild(ofOwners owners: [NSManagedObjectID], relationship: NSRelationshipDescription) throws -> [NSManagedObjectID: [RowSnapshot]] {
        try performAndWait {
            var result: [NSManagedObjectID: [RowSnapshot]] = [:]
            var unloaded: [NSManagedObjectID] = []
            for owner in owners {
                guard let object = registry.object(for: owner.identity), let slot = object.layout.slotIndex(forKey: relationship.name) else {
                    unloaded.append(owner)
                    continue
                }
                if object.isDeleted || object.flags.contains(.discarded) {
                    result[owner] = []
                } else if object.isRelationshipFault(atSlot: slot) {
                    unloaded.append(owner)
                } else {
                    result[owner] = try rowsForChild(of: object.loadedDestinations(atSlot: slot).map(\.objectID))
                }
            }
            for (owner, rows) in try destinationRows(ofOwners: unloaded, relationship: relationship) {
                result[owner] = rows.compactMap(currentRowForChild)
            }
            return result
        }
    }

    /// Applies a child's save: its inserted objects join this context as inserted objects with
    /// the same IDs (without `awakeFromInsert()`, which ran in the child), its changed values are
    /// set through the usual setters (so this context tracks them and keeps inverses), and its
    /// deleted objects are deleted here. This context becomes dirty; nothing reaches the store.
    func absorb(_ changes: ChildSaveChanges) {
        performAndWait {
            for change in changes.inserted where registry.object(for: change.objectID.identity) == nil {
                let entity = change.objectID.entity
                let object = objectClass(for: entity).init(entity: entity, insertInto: nil)
                object.assignObjectID(change.objectID)
                insertImplementation(object, awakening: false)
            }
            for change in changes.inserted + changes.updated {
                let object = objectImplementation(with: change.objectID)
                object.fireFault()
                for (slot, value) in change.values {
                    apply(value, to: object, atSlot: slot)
                }
            }
            for objectID in changes.deleted {
                deleteImplementation(objectImplementation(with: objectID))
            }
            processPendingChanges()
        }
    }

    private func apply(_ value: ChildSaveChanges.Value, to object: NSManagedObject, atSlot slot: Int) {
        switch value {
        case .attribute(let value):
            object.setValue(value, atSlot: slot)
        case .toOne(let destination):
            object.setToOne(destination.map(objectImplementation(with:)), atSlot: slot)
        case .toMany(let added, let removed):
            for destination in removed { object.removeFromToMany(objectImplementation(with: destination), atSlot: slot) }
            for destination in added { object.addToToMany(objectImplementation(with: destination), atSlot: slot) }
        case .orderedToMany(let destinations):
            object.replaceToMany(with: destinations.map(objectImplementation(with:)), atSlot: slot)
        }
    }

    /// Gives objects registered under temporary IDs the permanent IDs a descendant obtained for
    /// them, here and in this context's ancestors.
    func adoptPermanentIDs(_ renamed: [(temporary: NSManagedObjectID, permanent: NSManagedObjectID)]) {
        performAndWait {
            for (temporary, permanent) in renamed {
                if let object = registry.object(for: temporary.identity) { reregister(object, as: permanent) }
            }
            parent?.adoptPermanentIDs(renamed)
        }
    }

    // MARK: Rows of registered objects

    /// What the parent knows of a registered object's row.
    private enum ChildRowState {
        case row(RowSnapshot)
        /// Deleted in the parent: the child must not see it.
        case gone
        /// A fault without a current row: the parent's source has it.
        case unknown
    }

    private func childRowState(_ object: NSManagedObject) -> ChildRowState {
        if object.isDeleted || object.flags.contains(.discarded) || object.flags.contains(.invalidated) { return .gone }
        if object.isFault {
            guard let snapshot = object.snapshot, !isStale(snapshot) else { return .unknown }
            return .row(snapshot)
        }
        let generation = object.objectID.persistentStore?.rowChanges.currentGeneration ?? 0
        return .row(RowSnapshot.make(objectID: object.objectID, version: object.snapshot?.version ?? 0, values: object.rowValues, generation: generation))
    }

    /// A row read from the parent's source, replaced by the parent's state of the object when the
    /// parent holds it; nil when the parent deleted it.
    private func currentRowForChild(_ row: RowSnapshot) -> RowSnapshot? {
        guard let object = registry.object(for: row.objectIDValue.identity) else { return row }
        switch childRowState(object) {
        case .row(let current): return current
        case .gone: return nil
        case .unknown: return row
        }
    }
}
