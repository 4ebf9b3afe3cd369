// The save pipeline: process pending changes, willSave, validate (all errors collected), write
// each store's share in one transaction (or, in a child context, push the changes into the
// parent context), then commit the objects' new state and notify.
extension NSManagedObjectContext {
    /// The most `willSave()` rounds a save runs while the hooks keep changing objects.
    private static let maximumWillSaveRounds = 100

    func saveImplementation() throws {
        advanceQueryGeneration()
        // Deletes propagate at save even when `propagatesDeletesAtEndOfEvent` is false.
        try propagateDeletesForSave()
        processPendingChanges()
        guard hasChanges else { return }
        let coordinator = try requireCoordinator()
        NotificationCenter.default.post(name: .NSManagedObjectContextWillSave, object: self)
        runWillSave()
        // What the save changes from here on (a merge policy resolving conflicts) is not the
        // user's to undo.
        let eventRecord = undoRecord
        undoRecord = nil
        defer { if undoRecord == nil, undoManager != nil { undoRecord = eventRecord } }
        try validateChanges()
        if let parent {
            let saved = SavedObjects(changedObjects.filter(\.hasChanges))
            parent.absorb(ChildSaveChanges(saved))
            commitPushed(saved)
            postDidSave(saved)
            return
        }

        // The stores stay locked from the first conflict check to the commit, so that no other
        // save comes between a conflict's resolution and the write it allows.
        let start = DispatchTime.now().uptimeNanoseconds
        let saved = try coordinator.withStores { stores in
            defer { stores.forEach { try? $0.engine().saveDidEnd() } }
            return try writeResolvingConflicts(coordinator)
        }
        CoreDataMetrics.saves.increment()
        CoreDataMetrics.saveDuration.recordNanoseconds(DispatchTime.now().uptimeNanoseconds - start)
        postDidSave(saved)
    }

    /// Writes the changes, letting the merge policy resolve uniqueness and optimistic-locking
    /// conflicts and trying again, and commits them; returns what was saved.
    private func writeResolvingConflicts(_ coordinator: NSPersistentStoreCoordinator) throws -> SavedObjects {
        var round = 0
        while true {
            let saved = SavedObjects(changedObjects.filter(\.hasChanges))
            let constraintConflicts = try constraintConflicts(in: saved)
            if !constraintConflicts.isEmpty {
                guard round < Self.maximumConflictRounds else {
                    throw CoreDataError.make(NSManagedObjectConstraintMergeError, "The merge policy left uniqueness constraint conflicts unresolved.",
                                             userInfo: [NSPersistentStoreSaveConflictsErrorKey: constraintConflicts])
                }
                round += 1
                try ((mergePolicy as? NSMergePolicy) ?? NSMergePolicy.error).resolve(mergeConflicts: constraintConflicts)
                continue
            }
            let shares: [StoreShare]
            let outcome: NSPersistentStoreCoordinator.SaveOutcome
            shares = try storeShares(for: saved, coordinator: coordinator)
            outcome = try coordinator.save(shares.map { ($0.store, $0.changes) }, for: self)
            switch outcome {
            case .saved(let results):
                commit(saved, shares: shares, results: results)
                objectsCheckedForConflicts = []
                return saved
            case .conflict(let conflict):
                CoreDataMetrics.conflicts.increment()
                let conflicts = try optimisticLockingConflicts(in: saved)
                guard !conflicts.isEmpty else { throw conflict.error }
                // When the policy keeps leaving conflicts, the save fails as under the error policy.
                let policy = round < Self.maximumConflictRounds ? (mergePolicy as? NSMergePolicy) ?? NSMergePolicy.error : NSMergePolicy.error
                round += 1
                try policy.resolve(mergeConflicts: conflicts)
            }
        }
    }

    // MARK: Before writing

    /// Calls `willSave()` on every changed object, again on objects its hooks changed, until stable.
    private func runWillSave() {
        defer { changedObjects.forEach { $0.flags.remove(.willSaveCalled) } }
        for _ in 0..<Self.maximumWillSaveRounds {
            let due = changedObjects.filter { $0.hasChanges && !$0.flags.contains(.willSaveCalled) }
            guard !due.isEmpty else { return }
            for object in due {
                object.flags.insert(.willSaveCalled)
                object.willSave()
            }
            propagateDeletes()
            processPendingChanges()
        }
    }

    /// Validates every changed object; throws the single error, or 1560 with all of them.
    private func validateChanges() throws {
        var errors: [NSError] = []
        for object in changedObjects where object.hasChanges && !object.flags.contains(.inaccessible) {
            do {
                if object.isDeleted {
                    try object.validateForDelete()
                } else if object.isInserted {
                    try object.validateForInsert()
                } else {
                    try object.validateForUpdate()
                }
            } catch let error as NSError {
                if error.code == NSValidationMultipleErrorsError, let details = error.userInfo[NSDetailedErrorsKey] as? [NSError] {
                    errors += details
                } else {
                    errors.append(error)
                }
            }
        }
        try NSManagedObject.throwValidationErrors(errors)
    }

    // MARK: Writing

    /// The changed objects of one save, by kind.
    struct SavedObjects {
        var inserted: [NSManagedObject] = []
        var updated: [NSManagedObject] = []
        var deleted: [NSManagedObject] = []
        /// Deleted objects whose rows were already gone: discarded, not written.
        var inaccessible: [NSManagedObject] = []

        init(_ objects: [NSManagedObject]) {
            for object in objects {
                if object.isInserted { inserted.append(object) }
                else if object.flags.contains(.inaccessible) { inaccessible.append(object) }
                else if object.isDeleted { deleted.append(object) }
                else if object.isUpdated { updated.append(object) }
            }
        }
    }

    /// One store's part of a save: the changes, and the objects behind its inserted and updated rows.
    struct StoreShare {
        let store: NSPersistentStore
        var changes = StoreSaveChanges()
        /// The objects of `changes.updates`, in the same order.
        var updatedObjects: [NSManagedObject] = []
    }

    /// Splits the save into the share of each store.
    private func storeShares(for saved: SavedObjects, coordinator: NSPersistentStoreCoordinator) throws -> [StoreShare] {
        var shares: [StoreShare] = []
        // A save touches few stores, and consecutive objects mostly share one.
        var lastShare: (store: NSPersistentStore, index: Int)?
        func share(_ store: NSPersistentStore) throws -> Int {
            if let lastShare, lastShare.store === store { return lastShare.index }
            if let index = shares.firstIndex(where: { $0.store === store }) {
                lastShare = (store, index)
                return index
            }
            guard !store.isReadOnly else {
                throw CoreDataError.make(NSPersistentStoreSaveError, "The store at \(store.url?.path ?? "?") is read-only.")
            }
            shares.append(StoreShare(store: store))
            lastShare = (store, shares.count - 1)
            return shares.count - 1
        }
        // The store of an entity's new objects, found once per entity (a save has few entities).
        var entityStores: [(entity: NSEntityDescription, store: NSPersistentStore)] = []
        let hasAssignedStores = !storeAssignments.isEmpty
        func store(forNew object: NSManagedObject) throws -> NSPersistentStore {
            if let store = object.identifier?.persistentStore { return store }
            if hasAssignedStores, let store = try assignedStore(for: object, coordinator: coordinator) { return store }
            let entity = object.entity
            if let known = entityStores.first(where: { $0.entity === entity }) { return known.store }
            let store = try insertionStore(for: object, coordinator: coordinator)
            entityStores.append((entity, store))
            return store
        }
        // Rows refer to new objects by temporary IDs, which reading a destination's ID gives it:
        // every row that may refer to one is made before the inserts read which new objects have an ID.
        let insertedValues = saved.inserted.map(\.rowValues)
        var updates: [(object: NSManagedObject, store: NSPersistentStore, row: RowChange)] = []
        for object in saved.updated {
            let slots = rowSlots(changedBy: object)
            guard !slots.isEmpty, let store = object.objectID.persistentStore else { continue }
            let row = RowChange(objectID: object.objectID, values: object.rowValues, changedSlots: slots, version: object.snapshot?.version ?? 0)
            updates.append((object, store, row))
        }
        var relationshipChanges: [(object: NSManagedObject, changes: [ToManyChange])] = []
        for object in [saved.inserted, saved.updated].joined() {
            let changes = toManyChanges(of: object)
            if !changes.isEmpty { relationshipChanges.append((object, changes)) }
        }

        let multipleStores = coordinator.persistentStores.count > 1
        for (object, values) in zip(saved.inserted, insertedValues) {
            let store = try store(forNew: object)
            if multipleStores { try checkDestinations(of: object, areIn: store, coordinator: coordinator) }
            let row = RowInsert(entity: object.entity, objectID: object.identifier, values: values)
            let index = try share(store)
            shares[index].changes.inserts.append(row)
            shares[index].changes.objects.inserted.append(object)
        }
        for (object, store, row) in updates {
            if multipleStores { try checkDestinations(of: object, areIn: store, coordinator: coordinator) }
            let index = try share(store)
            shares[index].changes.updates.append(row)
            shares[index].updatedObjects.append(object)
        }
        for object in saved.deleted {
            guard let store = object.objectID.persistentStore else { continue }
            let row = RowChange(objectID: object.objectID, values: tombstoneValues(of: object), changedSlots: SlotSet(), version: object.snapshot?.version ?? 0)
            let index = try share(store)
            shares[index].changes.deletes.append(row)
            shares[index].changes.objects.deleted.append(object)
        }
        for (object, changes) in relationshipChanges {
            let store = try object.identifier?.persistentStore ?? store(forNew: object)
            let index = try share(store)
            shares[index].changes.toManyChanges += changes
        }
        for object in unchangedObjectsCheckedForConflicts() {
            guard let store = object.objectID.persistentStore, let version = object.snapshot?.version else { continue }
            let row = RowChange(objectID: object.objectID, values: SlotValues(), changedSlots: SlotSet(), version: version)
            let index = try share(store)
            shares[index].changes.lockChecks.append(row)
            shares[index].changes.objects.locked.append(object)
        }
        for object in saved.updated {
            guard let store = object.objectID.persistentStore, let index = shares.firstIndex(where: { $0.store === store }) else { continue }
            shares[index].changes.objects.updated.append(object)
        }
        let changedMetadata = coordinator.withStores { stores in
            stores.filter(\.metadataChanged).map { ($0, $0.storedMetadata) }
        }
        for (store, metadata) in changedMetadata {
            let index = try share(store)
            shares[index].changes.metadata = metadata
        }
        return shares
    }

    /// Refuses relationships to objects of another store, which a store cannot record (133010).
    private func checkDestinations(of object: NSManagedObject, areIn store: NSPersistentStore, coordinator: NSPersistentStoreCoordinator) throws {
        for slot in object.layout.relationshipSlots where !object.layout.slots[slot].isTransient {
            for destination in object.loadedDestinations(atSlot: slot) where !destination.isDeleted {
                let destinationStore = try destination.identifier?.persistentStore ?? insertionStore(for: destination, coordinator: coordinator)
                guard destinationStore === store else {
                    throw CoreDataError.make(
                        NSManagedObjectExternalRelationshipError,
                        "The relationship '\(object.layout.slots[slot].name)' of \(object.entity.entityName) points to an object of another persistent store.",
                        userInfo: [NSAffectedObjectsErrorKey: [object, destination]]
                    )
                }
            }
        }
    }

    private func insertionStore(for object: NSManagedObject, coordinator: NSPersistentStoreCoordinator) throws -> NSPersistentStore {
        guard let store = try assignedStore(for: object, coordinator: coordinator) ?? coordinator.store(forInserting: object.entity) else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "No persistent store holds the entity \(object.entity.entityName).")
        }
        return store
    }

    /// The values of a deleted object whose entity has attributes its store's persistent history
    /// keeps in the delete's tombstone; none otherwise, as a store needs no values to delete a row.
    private func tombstoneValues(of object: NSManagedObject) -> SlotValues {
        guard !object.layout.preservedAttributeSlots.isEmpty,
              (object.objectID.persistentStore as? PersistentHistoryStoring)?.tracksHistory == true else { return SlotValues() }
        if object.isFault { object.fireFault() }
        return object.rowValues
    }

    /// The attribute and to-one slots of an updated object whose values differ from its row.
    private func rowSlots(changedBy object: NSManagedObject) -> SlotSet {
        var slots = SlotSet()
        for slot in object.changedPersistentValues() where object.layout.tags[slot] != .toMany {
            slots.insert(slot)
        }
        return slots
    }

    /// Join-table and ordering changes of an object's loaded to-many relationships.
    private func toManyChanges(of object: NSManagedObject) -> [ToManyChange] {
        object.layout.persistentToManySlots.compactMap { slot in
            guard let relationship = object.layout.slots[slot].relationship,
                  let related = object.values[slot] as? RelatedObjects, related.hasChanges(ordered: relationship.isOrdered) else { return nil }
            return ToManyChange(
                owner: object.objectID,
                relationship: relationship,
                added: related.added.map(\.objectID),
                removed: related.removed.map(\.objectID),
                orderedDestinations: relationship.isOrdered ? related.objects.map(\.objectID) : nil
            )
        }
    }

    // MARK: After writing

    /// Makes the saved state the committed state of every object.
    private func commit(_ saved: SavedObjects, shares: [StoreShare], results: [StoreSaveResult]) {
        registry.withLock { registered in
            for (share, result) in zip(shares, results) {
                for (object, permanentID) in zip(share.changes.objects.inserted, result.permanentIDs) where permanentID !== object.identifier {
                    reregister(object, as: permanentID, in: &registered)
                }
            }
        }
        let readTime = DispatchTime.now().uptimeNanoseconds
        var rowVersions: [ObjectIdentifier: Int64] = [:]
        var generations: [ObjectIdentifier: Int] = [:]
        for (share, result) in zip(shares, results) {
            generations[ObjectIdentifier(share.store)] = result.generation
            for object in share.updatedObjects {
                rowVersions[ObjectIdentifier(object)] = (object.snapshot?.version ?? 0) + 1
            }
            // By index, not by element: a copy of each row would retain its entity, ID and values.
            for index in share.changes.objects.inserted.indices {
                let object = share.changes.objects.inserted[index]
                let values = object.layout.persistentToOneSlots.isEmpty ? share.changes.inserts[index].values : object.rowValues
                object.commitChanges(as: RowSnapshot.make(objectID: object.objectID, version: 1, values: values, generation: result.generation, readTime: readTime))
            }
        }
        for object in saved.updated {
            let version = rowVersions[ObjectIdentifier(object)] ?? object.snapshot?.version ?? 0
            let generation = object.objectID.persistentStore.flatMap { generations[ObjectIdentifier($0)] ?? $0.rowChanges.currentGeneration } ?? 0
            object.commitChanges(as: RowSnapshot.make(objectID: object.objectID, version: version, values: object.rowValues, generation: generation, readTime: readTime))
        }
        // Only rows the save wrote: an updated object whose values equal its row wrote nothing,
        // and its snapshot may be older than the row another context saved since.
        persistentStoreCoordinator?.didCommit(inserted: saved.inserted.compactMap(\.snapshot),
                                              updated: shares.flatMap(\.updatedObjects).compactMap(\.snapshot),
                                              deleting: saved.deleted.map(\.objectID))
        finishCommit(saved)
    }

    /// After a child context pushed its changes into its parent: the pushed state becomes the
    /// committed state, as the parent now holds it.
    private func commitPushed(_ saved: SavedObjects) {
        for object in saved.inserted + saved.updated {
            let generation = object.snapshot?.generation ?? object.objectID.persistentStore?.rowChanges.currentGeneration ?? 0
            object.commitChanges(as: RowSnapshot.make(objectID: object.objectID, version: object.snapshot?.version ?? 0, values: object.rowValues, generation: generation))
        }
        finishCommit(saved)
    }

    /// The end of every commit: saved deletes leave the context, and `didSave()` runs.
    private func finishCommit(_ saved: SavedObjects) {
        for object in saved.deleted + saved.inaccessible {
            registry.remove(object.objectID.identity)
            object.flags = object.flags.intersection(.listMarkers).union(.invalidated)
        }
        changedObjects.compact { $0.hasChanges }
        // Objects whose rows another context deleted leave this context deleted: a fetched
        // results controller reports their delete once the other context's save is merged.
        for object in saved.inaccessible { object.flags.insert(.deleted) }
        for object in saved.inserted { object.didSave() }
        for object in saved.updated { object.didSave() }
        for object in saved.deleted { object.didSave() }
        for object in saved.deleted + saved.inaccessible { object.managedObjectContext = nil }
        reportRegistrations()
    }

    private func postDidSave(_ saved: SavedObjects) {
        let center = NotificationCenter.default
        center.post(name: .NSManagedObjectContextDidSave, object: self, userInfo: [
            NSInsertedObjectsKey: Set(sparselyHolding: saved.inserted),
            NSUpdatedObjectsKey: Set(sparselyHolding: saved.updated),
            NSDeletedObjectsKey: Set(sparselyHolding: saved.deleted),
        ])
        center.post(name: NSManagedObjectContext.didSaveObjectIDsNotification, object: self, userInfo: [
            NSInsertedObjectIDsKey: Set(sparselyHolding: saved.inserted.lazy.map(\.objectID)),
            NSUpdatedObjectIDsKey: Set(sparselyHolding: saved.updated.lazy.map(\.objectID)),
            NSDeletedObjectIDsKey: Set(sparselyHolding: saved.deleted.lazy.map(\.objectID)),
        ])
    }
}
