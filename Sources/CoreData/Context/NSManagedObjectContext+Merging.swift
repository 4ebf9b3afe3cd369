// Merging the saves of other contexts, as Apple documents `mergeChanges(fromContextDidSave:)`:
// the objects they updated are refreshed here (keeping this context's own unsaved changes), the
// objects they inserted are registered with their values, and the objects they deleted that this
// context holds stay registered as deleted, with their last values, until this context saves;
// ObjectsDidChange reports all three.
extension NSManagedObjectContext {
    /// Merges a did-save notification's changes (objects or object IDs of another context of the
    /// same stores) into this context.
    func mergeChangesImplementation(fromContextDidSave notification: Notification) {
        CoreDataMetrics.merges.increment()
        let userInfo = notification.userInfo ?? [:]
        let inserted = Self.objectIDs(userInfo, idsKey: NSInsertedObjectIDsKey, objectsKey: NSInsertedObjectsKey)
        let updated = Self.objectIDs(userInfo, idsKey: NSUpdatedObjectIDsKey, objectsKey: NSUpdatedObjectsKey)
        let deleted = Self.objectIDs(userInfo, idsKey: NSDeletedObjectIDsKey, objectsKey: NSDeletedObjectsKey)
        // A save through this coordinator left its rows in the row cache; one through another
        // coordinator (or of unknown origin, as a history transaction's) changed rows it may
        // hold from before.
        if (notification.object as? NSManagedObjectContext)?.persistentStoreCoordinator !== persistentStoreCoordinator {
            persistentStoreCoordinator?.forgetCachedRows(of: updated + deleted)
        }
        mergeChanges(inserted: inserted, updated: updated, deleted: deleted)
    }

    /// The registered objects of some IDs, and the IDs with no registered object, in one lookup each.
    private func registeredObjects(of objectIDs: [NSManagedObjectID]) -> (registered: [NSManagedObject], unregistered: [NSManagedObjectID]) {
        var registered: [NSManagedObject] = []
        var unregistered: [NSManagedObjectID] = []
        for objectID in objectIDs {
            if let object = registry.object(for: objectID.identity) {
                registered.append(object)
            } else {
                unregistered.append(objectID)
            }
        }
        return (registered, unregistered)
    }

    /// Merges changes given as object IDs: refreshes the registered updated objects and
    /// registers the inserted ones with their rows, all read at once (from the coordinator's row
    /// cache, or in one query per store); marks the registered deleted objects deleted; then
    /// posts ObjectsDidChange and the did-merge notification.
    ///
    /// Rows that are gone by the time the merge runs (a later save deleted them) are neither
    /// registered nor reported: the merge of that later save reports their delete, when this
    /// context holds them. When the rows cannot be read (a store error), the objects become
    /// faults that read their rows when used, and so report the error then.
    func mergeChanges(inserted: [NSManagedObjectID], updated: [NSManagedObjectID], deleted: [NSManagedObjectID]) {
        advanceQueryGeneration()
        let (refreshed, updatedUnregistered) = registeredObjects(of: updated)
        let (removed, deletedUnregistered) = registeredObjects(of: deleted)
        let read = MergedRows(reading: refreshed.map(\.objectID) + inserted + updatedUnregistered, in: self)
        for object in refreshed {
            let row = read.row(of: object.objectID)
            if object.isFault {
                // The fault keeps the new row, so that firing it reads nothing; without a row
                // (gone since the save), firing it finds the object deleted.
                if read.succeeded { object.snapshot = row }
            } else {
                refreshImplementation(object, mergeChanges: true, snapshot: row)
            }
        }
        let removedHere = removed.filter { $0.managedObjectContext === self && !$0.isInserted }
        for object in removedHere { keepDeletedByMerge(object) }
        applyDeleteRulesInMemory(of: removedHere)
        // Deleted objects this context had not registered are reported as well, as deleted
        // objects outside any context: a fetched results controller holds rows it made no
        // object for.
        let deletedElsewhere = deletedUnregistered.map(deletedObjectOutsideContext(for:))
        // Newly inserted objects are registered with their values, as Apple documents; updated
        // objects this context had not registered are reported too (as faults that hold their
        // rows), as they may now match its fetches.
        let insertedHere = inserted.compactMap { objectID in
            read.succeeded
                ? read.row(of: objectID).map { registerInsertedElsewhere(objectID, row: $0) }
                : registry.object(for: objectID.identity) ?? makeFault(for: objectID, snapshot: nil)
        }
        let updatedElsewhere = updatedUnregistered.compactMap { objectID in
            read.succeeded ? read.row(of: objectID).map { makeFault(for: objectID, snapshot: $0) } : makeFault(for: objectID, snapshot: nil)
        }
        guard !refreshed.isEmpty || !deleted.isEmpty || !insertedHere.isEmpty || !updatedElsewhere.isEmpty else { return }
        // As Apple's contexts report merges: what another context updated is refreshed here, not
        // updated (this context did not change it).
        NotificationCenter.default.post(name: .NSManagedObjectContextObjectsDidChange, object: self, userInfo: [
            NSInsertedObjectsKey: Set(insertedHere),
            NSRefreshedObjectsKey: Set(refreshed + updatedElsewhere),
            NSDeletedObjectsKey: Set(removed + deletedElsewhere),
        ])
        NotificationCenter.default.post(name: NSManagedObjectContext.didMergeChangesObjectIDsNotification, object: self, userInfo: [
            NSInsertedObjectIDsKey: Set(insertedHere.map(\.objectID)),
            NSUpdatedObjectIDsKey: Set(refreshed.map(\.objectID)),
            NSRefreshedObjectIDsKey: Set(refreshed.map(\.objectID)),
            NSDeletedObjectIDsKey: Set(deleted),
        ])
    }

    /// The rows a merge reads at once: nil rows are gone, unless the read itself failed.
    private struct MergedRows {
        let rows: [ObjectIdentity: RowSnapshot]
        let succeeded: Bool

        init(reading objectIDs: [NSManagedObjectID], in context: NSManagedObjectContext) {
            do {
                rows = try context.currentRows(of: objectIDs)
                succeeded = true
            } catch {
                // A merge cannot throw; the objects read their rows again when used, which reports it.
                CoreDataLog.context.error("a merge could not read the rows it refreshes: \(error)")
                rows = [:]
                succeeded = false
            }
        }

        func row(of objectID: NSManagedObjectID) -> RowSnapshot? {
            rows[objectID.identity]
        }
    }

    /// The object of an ID another context inserted, registered here with its row's values.
    private func registerInsertedElsewhere(_ objectID: NSManagedObjectID, row: RowSnapshot) -> NSManagedObject {
        let object = registry.object(for: objectID.identity) ?? makeFault(for: objectID, snapshot: row)
        if object.isFault { object.materialize(from: row) }
        return object
    }

    /// Keeps a registered object another context deleted: it stays registered with its last
    /// values (a fault takes those of its row snapshot, if it holds one), `isDeleted` and among
    /// `deletedObjects`, as on Apple platforms, while fetches no longer find its row. Its row
    /// is gone, so the next save writes nothing for it and forgets it; its delete rules ran on
    /// the store in the context that deleted it (`applyDeleteRulesInMemory` applies them here).
    private func keepDeletedByMerge(_ object: NSManagedObject) {
        if object.isFault {
            if let snapshot = object.snapshot { object.materialize(from: snapshot) } else { object.materializeEmpty() }
        }
        // A delete of this context's own that has not propagated yet still applies its rules here.
        object.flags.insert(object.isDeleted ? .inaccessible : [.deleted, .deletePropagated, .inaccessible])
        changedObjects.append(object)
    }

    /// Applies the delete rules of objects another context deleted to the objects this context
    /// holds in memory that still point at them, as Apple's merge, which deletes them here, does:
    /// nullify unlinks, cascade deletes. Only links this context's unsaved changes made are
    /// left: the deleting context applied the rules to the store, which refreshed objects and
    /// faults read.
    private func applyDeleteRulesInMemory(of deleted: [NSManagedObject]) {
        for object in deleted {
            for slot in object.layout.relationshipSlots {
                guard let relationship = object.layout.slots[slot].relationship, let inverse = relationship.inverseRelationship else { continue }
                for destination in object.loadedDestinations(atSlot: slot)
                where destination.managedObjectContext === self && !destination.isFault && !destination.isDeleted && Self.loaded(inverse, of: destination, holds: object) {
                    switch relationship.deleteRule {
                    case .nullifyDeleteRule: destination.unlinkInverse(inverse, from: object)
                    case .cascadeDeleteRule: delete(destination)
                    case .denyDeleteRule, .noActionDeleteRule: continue
                    }
                }
            }
        }
    }

    /// Whether a relationship of a materialized object, as loaded, holds `destination`.
    private static func loaded(_ relationship: NSRelationshipDescription, of object: NSManagedObject, holds destination: NSManagedObject) -> Bool {
        guard let slot = object.layout.slotIndex(forKey: relationship.name) else { return false }
        if relationship.isToMany { return (object.values[slot] as? RelatedObjects)?.contains(destination) ?? false }
        return object.toOneDestinationID(atSlot: slot) == destination.objectID
    }

    /// The object a merge reports for a deleted ID this context holds no object for: deleted,
    /// without values, outside any context.
    private func deletedObjectOutsideContext(for objectID: NSManagedObjectID) -> NSManagedObject {
        let object = makeUnregisteredFault(for: objectID, snapshot: nil, of: nil)
        object.managedObjectContext = nil
        object.flags = [.fault, .deleted, .invalidated]
        return object
    }

    /// The object IDs under a did-save notification's IDs key, or its objects key.
    private static func objectIDs(_ userInfo: [AnyHashable: Any], idsKey: String, objectsKey: String? = nil) -> [NSManagedObjectID] {
        if let objectsKey, let objects = userInfo[objectsKey] as? Set<NSManagedObject> { return objects.map(\.objectID) }
        if let objectsKey, let objects = userInfo[objectsKey] as? [NSManagedObject] { return objects.map(\.objectID) }
        if let identifiers = userInfo[idsKey] as? Set<NSManagedObjectID> { return Array(identifiers) }
        return userInfo[idsKey] as? [NSManagedObjectID] ?? []
    }

    /// Merges changes given as arrays of object IDs or their URIs into contexts, each on its queue.
    static func mergeRemoteChanges(_ changes: [AnyHashable: Any], into contexts: [NSManagedObjectContext]) {
        for context in contexts {
            context.performAndWait {
                let identifiers = { (key: String) -> [NSManagedObjectID] in
                    (changes[key] as? [Any] ?? (changes[key] as? Set<AnyHashable>).map { Array($0) } ?? []).compactMap { value in
                        if let identifier = value as? NSManagedObjectID { return identifier }
                        guard let uri = value as? URL else { return nil }
                        return context.persistentStoreCoordinator?.managedObjectID(forURIRepresentation: uri)
                    }
                }
                let (inserted, updated, deleted) = (identifiers(NSInsertedObjectsKey), identifiers(NSUpdatedObjectsKey), identifiers(NSDeletedObjectsKey))
                // Another process or coordinator wrote these rows: those this coordinator cached
                // before are out of date.
                context.persistentStoreCoordinator?.forgetCachedRows(of: updated + deleted)
                context.mergeChanges(inserted: inserted, updated: updated, deleted: deleted)
            }
        }
    }

    // MARK: Automatic merging

    /// Starts or stops merging the saves made to this context's parent, on this context's queue:
    /// the parent context's saves, or the saves the coordinator's other root contexts make.
    func observeParentSaves(_ observe: Bool) {
        if let observer = parentSaveObserver {
            NotificationCenter.default.removeObserver(observer)
            parentSaveObserver = nil
        }
        guard observe else { return }
        // The observer runs on the saving context's thread, so it must not read this context's
        // state: the parent and coordinator are captured now.
        parentSaveObserver = NotificationCenter.default.addObserver(forName: NSManagedObjectContext.didSaveObjectIDsNotification, object: nil, queue: nil) {
            [weak self, weak parent = parent, weak coordinator = persistentStoreCoordinator] notification in
            guard let self, let sender = notification.object as? NSManagedObjectContext, sender !== self else { return }
            if let parent {
                guard sender === parent else { return }
            } else {
                guard let coordinator, sender.parent == nil, sender.persistentStoreCoordinator === coordinator else { return }
            }
            let userInfo = notification.userInfo ?? [:]
            let inserted = Self.objectIDs(userInfo, idsKey: NSInsertedObjectIDsKey)
            let updated = Self.objectIDs(userInfo, idsKey: NSUpdatedObjectIDsKey)
            let deleted = Self.objectIDs(userInfo, idsKey: NSDeletedObjectIDsKey)
            self.perform { self.mergeChanges(inserted: inserted, updated: updated, deleted: deleted) }
        }
    }
}
