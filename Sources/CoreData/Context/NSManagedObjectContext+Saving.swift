// The save pipeline: process pending changes, willSave, validate (all errors collected), write
// each store's share in one transaction, then commit the objects' new state and notify.
extension NSManagedObjectContext {
    /// The most `willSave()` rounds a save runs while the hooks keep changing objects.
    private static let maximumWillSaveRounds = 100

    func saveImplementation() throws {
        propagateDeletes()
        processPendingChanges()
        guard hasChanges else { return }
        let coordinator = try requireCoordinator()
        NotificationCenter.default.post(name: .NSManagedObjectContextWillSave, object: self)
        runWillSave()
        try validateChanges()

        let saved = SavedObjects(changedObjects.filter(\.hasChanges))
        let changesByStore = try storeChanges(for: saved, coordinator: coordinator)
        let permanentIDs = try coordinator.withStores { _ in
            try changesByStore.reduce(into: [NSManagedObjectID: NSManagedObjectID]()) { ids, entry in
                ids.merge(try entry.store.engine().save(entry.changes).permanentIDs) { _, new in new }
            }
        }
        commit(saved, permanentIDs: permanentIDs)
        postDidSave(saved)
    }

    // MARK: Before writing

    /// Calls `willSave()` on every changed object, again on objects its hooks changed, until stable.
    private func runWillSave() {
        var called = Set<ObjectIdentifier>()
        for _ in 0..<Self.maximumWillSaveRounds {
            let due = changedObjects.filter { $0.hasChanges && !called.contains(ObjectIdentifier($0)) }
            guard !due.isEmpty else { return }
            for object in due {
                called.insert(ObjectIdentifier(object))
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

        init(_ objects: [NSManagedObject]) {
            for object in objects {
                if object.isInserted { inserted.append(object) }
                else if object.isDeleted { deleted.append(object) }
                else if object.isUpdated { updated.append(object) }
            }
        }
    }

    /// Splits the save into the share of each store.
    private func storeChanges(for saved: SavedObjects, coordinator: NSPersistentStoreCoordinator) throws -> [(store: NSPersistentStore, changes: StoreSaveChanges)] {
        var shares: [ObjectIdentifier: (store: NSPersistentStore, changes: StoreSaveChanges)] = [:]
        var order: [ObjectIdentifier] = []
        func add(_ store: NSPersistentStore, _ update: (inout StoreSaveChanges) -> Void) throws {
            guard !store.isReadOnly else {
                throw CoreDataError.make(NSPersistentStoreSaveError, "The store at \(store.url?.path ?? "?") is read-only.")
            }
            let key = ObjectIdentifier(store)
            if shares[key] == nil { shares[key] = (store, StoreSaveChanges()); order.append(key) }
            update(&shares[key]!.changes)
        }
        for object in saved.inserted {
            let store = try object.objectID.persistentStore ?? insertionStore(for: object, coordinator: coordinator)
            try add(store) { $0.inserts.append(rowChange(for: object, slots: nil)) }
        }
        for object in saved.updated {
            let slots = object.changedPersistentValues()
            guard !slots.isEmpty, let store = object.objectID.persistentStore else { continue }
            var changed = SlotSet()
            slots.forEach { changed.insert($0) }
            try add(store) { $0.updates.append(rowChange(for: object, slots: changed)) }
        }
        for object in saved.deleted {
            guard let store = object.objectID.persistentStore else { continue }
            try add(store) { $0.deletes.append(RowChange(objectID: object.objectID, values: [], changedSlots: SlotSet(), version: object.snapshot?.version ?? 0)) }
        }
        for object in saved.inserted + saved.updated {
            for change in toManyChanges(of: object) {
                guard let store = object.objectID.persistentStore ?? coordinator.store(forInserting: object.entity) else { continue }
                try add(store) { $0.toManyChanges.append(change) }
            }
        }
        for store in coordinator.persistentStores where store.metadataChanged {
            try add(store) { $0.metadata = store.storedMetadata }
        }
        return order.compactMap { shares[$0] }
    }

    private func insertionStore(for object: NSManagedObject, coordinator: NSPersistentStoreCoordinator) throws -> NSPersistentStore {
        guard let store = coordinator.store(forInserting: object.entity) else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "No persistent store holds the entity \(object.entity.entityName).")
        }
        return store
    }

    /// An object's values in snapshot form: to-one destinations as object IDs, to-many slots nil.
    private func snapshotValues(of object: NSManagedObject) -> ContiguousArray<Any?> {
        var values = object.values
        for slot in object.layout.relationshipSlots {
            values[slot] = (values[slot] as? NSManagedObject)?.objectID
        }
        return values
    }

    private func rowChange(for object: NSManagedObject, slots: SlotSet?) -> RowChange {
        var changed = slots ?? SlotSet()
        if slots == nil {
            object.layout.persistentAttributeSlots.forEach { changed.insert($0) }
            object.layout.persistentToOneSlots.forEach { changed.insert($0) }
        }
        return RowChange(objectID: object.objectID, values: snapshotValues(of: object), changedSlots: changed, version: object.snapshot?.version ?? 0)
    }

    /// Join-table and ordering changes of an object's loaded to-many relationships.
    private func toManyChanges(of object: NSManagedObject) -> [ToManyChange] {
        object.layout.persistentToManySlots.compactMap { slot in
            guard let related = object.values[slot] as? RelatedObjects, related.hasChanges,
                  let relationship = object.layout.slots[slot].relationship else { return nil }
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
    private func commit(_ saved: SavedObjects, permanentIDs: [NSManagedObjectID: NSManagedObjectID]) {
        for object in saved.inserted {
            if let permanent = permanentIDs[object.objectID] { reregister(object, as: permanent) }
        }
        for object in saved.inserted {
            object.commitChanges(as: RowSnapshot(objectID: object.objectID, version: 1, values: snapshotValues(of: object)))
        }
        for object in saved.updated {
            let version = (object.snapshot?.version ?? 0) + (object.changedPersistentValues().isEmpty ? 0 : 1)
            object.commitChanges(as: RowSnapshot(objectID: object.objectID, version: version, values: snapshotValues(of: object)))
        }
        for object in saved.deleted {
            registry.removeValue(forKey: object.objectID)
            object.flags = [.invalidated]
        }
        for store in persistentStoreCoordinator?.persistentStores ?? [] { store.metadataChanged = false }
        changedObjects.compact { $0.hasChanges }
        for object in saved.inserted + saved.updated + saved.deleted {
            object.didSave()
        }
        for object in saved.deleted {
            object.managedObjectContext = nil
        }
    }

    private func postDidSave(_ saved: SavedObjects) {
        let center = NotificationCenter.default
        center.post(name: .NSManagedObjectContextDidSave, object: self, userInfo: [
            NSInsertedObjectsKey: Set(saved.inserted),
            NSUpdatedObjectsKey: Set(saved.updated),
            NSDeletedObjectsKey: Set(saved.deleted),
        ])
        center.post(name: NSManagedObjectContext.didSaveObjectIDsNotification, object: self, userInfo: [
            NSInsertedObjectIDsKey: Set(saved.inserted.map(\.objectID)),
            NSUpdatedObjectIDsKey: Set(saved.updated.map(\.objectID)),
            NSDeletedObjectIDsKey: Set(saved.deleted.map(\.objectID)),
        ])
    }
}
