// Change tracking: inserting and deleting objects, delete propagation, the end-of-event
// notification, rollback, reset and refresh.
extension NSManagedObjectContext {
    /// Inserts an object; `awakening` is false for objects a child context's save brings in,
    /// which awoke when the child inserted them.
    func insertImplementation(_ object: NSManagedObject, awakening: Bool = true) {
        if let owner = object.managedObjectContext, owner !== self {
            preconditionFailure("An NSManagedObject may only be in (or observed by) a single NSManagedObjectContext.")
        }
        if object.flags.contains(.deleted) {
            if undoRecord != nil { recordUndoMembership(of: object, existed: false) }
            object.flags.remove([.deleted, .deletePropagated])
            return
        }
        guard !object.isInserted, object.managedObjectContext == nil || object.identifier?.isTemporaryID ?? true else { return }
        if undoRecord != nil { recordUndoMembership(of: object, existed: false) }
        object.managedObjectContext = self
        object.flags = object.flags.intersection(.listMarkers).union([.inserted, .insertedInEvent])
        for slot in object.layout.relationshipSlots where object.layout.tags[slot] == .toMany {
            if !(object.values[slot] is RelatedObjects) {
                object.values[slot] = RelatedObjects(committed: true)
            }
        }
        if let identifier = object.identifier { register(object, as: identifier) }
        changedObjects.append(object)
        eventObjects.append(object)
        if awakening { object.awakeFromInsert() }
    }

    func deleteImplementation(_ object: NSManagedObject) {
        guard let owner = object.managedObjectContext else { return }
        precondition(owner === self, "An object can only be deleted by the context it belongs to.")
        // Apple's Core Data calls it from every delete(_:), before anything is torn down.
        object.prepareForDeletion()
        guard !object.flags.contains(.deleted), !object.flags.contains(.discarded) else { return }
        object.fireFault()
        if undoRecord != nil { recordUndoMembership(of: object, existed: true) }
        if object.isInserted {
            object.flags.remove(.inserted)
            object.flags.insert(.discarded)
        } else {
            object.flags.insert(.deleted)
        }
        changedObjects.append(object)
        eventObjects.append(object)
        awaitingPropagation.append(object)
    }

    /// Records that a registered object was changed (called by the object's setters).
    func objectDidChange(_ object: NSManagedObject) {
        changedObjects.append(object)
        eventObjects.append(object)
    }

    // MARK: End of event

    func processPendingChangesImplementation() {
        if propagatesDeletesAtEndOfEvent {
            propagateDeletes()
        }
        // After propagation, whose changes belong to the event: undoing a delete brings back
        // what it cascaded to and nullified.
        registerUndoForEvent()
        postObjectsDidChange()
        undoManager?.endEventGroupIfNeeded()
    }

    /// Applies the delete rules of every deleted object whose delete has not propagated yet:
    /// nullify removes it from its destinations' inverses, cascade deletes the destinations (which
    /// join the work list). Deny is checked at save, by validation.
    func propagateDeletes() {
        while !awaitingPropagation.isEmpty {
            propagateDeletesOfBatch()
        }
        forgetDiscarded()
    }

    /// Delete propagation at save: the to-many destinations each batch's delete rules visit
    /// (and deny validation reads) are loaded first, one query per relationship, so that a store
    /// error fails the save with those deletes not propagated yet. Loaded as the rules run, a failed
    /// read counts as no destinations, and the save leaves rows behind that refer to deleted ones.
    func propagateDeletesForSave() throws {
        while !awaitingPropagation.isEmpty {
            try loadDestinationsVisitedByDeleteRules(of: awaitingPropagation.filter(isAwaitingPropagation))
            propagateDeletesOfBatch()
        }
        forgetDiscarded()
    }

    private func propagateDeletesOfBatch() {
        let batch = awaitingPropagation
        awaitingPropagation = []
        for object in batch where isAwaitingPropagation(object) {
            object.flags.insert(.deletePropagated)
            applyDeleteRules(of: object)
        }
    }

    private func loadDestinationsVisitedByDeleteRules(of objects: [NSManagedObject]) throws {
        var groups: [(relationship: NSRelationshipDescription, owners: [NSManagedObject])] = []
        for object in objects {
            for slot in object.layout.relationshipSlots where object.layout.tags[slot] == .toMany {
                guard let relationship = object.layout.slots[slot].relationship,
                      relationship.deleteRule == .cascadeDeleteRule || relationship.deleteRule == .denyDeleteRule
                          || (relationship.deleteRule == .nullifyDeleteRule && relationship.inverseRelationship != nil) else { continue }
                if let index = groups.firstIndex(where: { $0.relationship === relationship }) {
                    groups[index].owners.append(object)
                } else {
                    groups.append((relationship, [object]))
                }
            }
        }
        for (relationship, owners) in groups {
            _ = try prefetchToMany(relationship, of: owners)
        }
    }

    private func forgetDiscarded() {
        let discarded = changedObjects.filter { $0.flags.contains(.discarded) && $0.managedObjectContext === self }
        guard !discarded.isEmpty else { return }
        forgottenInserts += discarded.filter { !$0.flags.contains(.insertedInEvent) }
        discarded.forEach(forget)
        changedObjects.compact { !$0.flags.contains(.invalidated) }
    }

    private func isAwaitingPropagation(_ object: NSManagedObject) -> Bool {
        (object.flags.contains(.deleted) || object.flags.contains(.discarded)) && !object.flags.contains(.deletePropagated)
    }

    private func applyDeleteRules(of object: NSManagedObject) {
        for slotIndex in object.layout.relationshipSlots {
            guard let relationship = object.layout.slots[slotIndex].relationship else { continue }
            switch relationship.deleteRule {
            case .nullifyDeleteRule:
                guard let inverse = relationship.inverseRelationship else { continue }
                for destination in object.destinations(atSlot: slotIndex) {
                    destination.unlinkInverse(inverse, from: object)
                }
            case .cascadeDeleteRule:
                for destination in object.destinations(atSlot: slotIndex) where !destination.isDeleted {
                    delete(destination)
                }
            case .denyDeleteRule, .noActionDeleteRule:
                continue
            }
        }
    }

    func postObjectsDidChange() {
        guard !eventObjects.isEmpty || !forgottenInserts.isEmpty else { return }
        var inserted = Set<NSManagedObject>(minimumCapacity: eventObjects.objects.count)
        var updated = Set<NSManagedObject>()
        var deleted = Set(forgottenInserts)
        forgottenInserts = []
        for object in eventObjects where object.managedObjectContext === self {
            if object.isInserted {
                if object.flags.contains(.insertedInEvent) { inserted.insert(object) } else { updated.insert(object) }
            } else if object.isDeleted {
                deleted.insert(object)
            } else if object.flags.contains(.discarded) {
                // Deleted after an earlier event reported its insert; not forgotten yet when
                // deletes propagate only at save.
                if !object.flags.contains(.insertedInEvent) { deleted.insert(object) }
            } else {
                // Updated, or changed back to its committed state by an undo: either way,
                // observers must see the change.
                updated.insert(object)
            }
            object.flags.remove(.insertedInEvent)
        }
        eventObjects.removeAll()
        guard !(inserted.isEmpty && updated.isEmpty && deleted.isEmpty) else { return }
        var info: [AnyHashable: Any] = [:]
        if !inserted.isEmpty { info[NSInsertedObjectsKey] = inserted }
        if !updated.isEmpty { info[NSUpdatedObjectsKey] = updated }
        if !deleted.isEmpty { info[NSDeletedObjectsKey] = deleted }
        NotificationCenter.default.post(name: .NSManagedObjectContextObjectsDidChange, object: self, userInfo: info)
    }

    // MARK: Rollback, reset, refresh

    func rollbackImplementation() {
        var reverted: [NSManagedObject] = []
        for object in changedObjects {
            // Objects whose rows are gone (deleted by a merged save, or found missing) cannot
            // return to their committed state: they leave the context.
            if object.isInserted || object.flags.contains(.discarded) || object.flags.contains(.inaccessible) {
                forget(object)
            } else {
                object.flags.remove([.deleted, .deletePropagated])
                object.revertChanges()
                reverted.append(object)
            }
        }
        for object in reverted where !object.isFault {
            object.awake(fromSnapshotEvents: .rollback)
        }
        changedObjects.removeAll()
        eventObjects.removeAll()
        awaitingPropagation = []
        forgottenInserts = []
        objectsCheckedForConflicts = []
        discardUndoHistory()
    }

    func resetImplementation() {
        advanceQueryGeneration()
        var seen = Set<ObjectIdentifier>()
        let forgotten = (registry.removeAll() + changedObjects.objects).filter { seen.insert(ObjectIdentifier($0)).inserted }
        let identifiers = forgotten.compactMap(\.identifier)
        changedObjects.removeAll()
        eventObjects.removeAll()
        awaitingPropagation = []
        forgottenInserts = []
        for object in forgotten {
            // A fault stays one, so that reading it gives nil values rather than reading slots it
            // never had.
            object.flags = object.flags.intersection(.fault).union(.invalidated)
            object.managedObjectContext = nil
        }
        retainedObjects = []
        objectsCheckedForConflicts = []
        prefetched.removeAll()
        discardUndoHistory()
        reportRegistrations()
        NotificationCenter.default.post(
            name: .NSManagedObjectContextObjectsDidChange,
            object: self,
            userInfo: [NSInvalidatedAllObjectsKey: identifiers]
        )
    }

    /// Turns an object into a fault, keeping its unsaved changes when `mergeChanges` is set; with
    /// a `snapshot` (a row just fetched), the object takes its values from it instead of the store.
    func refreshImplementation(_ object: NSManagedObject, mergeChanges: Bool, snapshot: RowSnapshot? = nil) {
        guard object.managedObjectContext === self, !object.isInserted, !object.isFault else { return }
        guard mergeChanges, object.flags.contains(.updated) else {
            object.flags.remove(.updated)
            object.turnIntoFault(keeping: snapshot)
            return
        }
        rebase(object, onto: snapshot, keeping: Array(object.changedSlots), reapplyingToManyChanges: true)
        object.awake(fromSnapshotEvents: .refresh)
    }

    /// Reloads an object's values from `snapshot` (or its store), then sets the values it held
    /// at `slots` again as changes. With `reapplyingToManyChanges`, as a refresh that merges
    /// changes does, a to-many relationship is not set back whole: it takes the destinations the
    /// store has now, and then this context's additions, removals and order again, so that what
    /// another context added or removed stays.
    func rebase(_ object: NSManagedObject, onto snapshot: RowSnapshot?, keeping slots: [Int], reapplyingToManyChanges: Bool = false) {
        let pending = slots.map { ($0, object.values[$0]) }
        object.turnIntoFault(keeping: snapshot)
        object.fireFault()
        for (slot, value) in pending {
            switch (object.layout.tags[slot], value) {
            case (.attribute, _):
                object.storeAttribute(value, atSlot: slot)
            case (.toMany, let local as RelatedObjects) where reapplyingToManyChanges:
                let isOrdered = object.layout.slots[slot].relationship?.isOrdered ?? false
                object.relatedObjects(atSlot: slot).reapplyChanges(of: local, ordered: isOrdered)
            default:
                object.values[slot] = value
            }
            object.markChanged(slot: slot)
        }
    }

    /// Removes an object from the context for good (rolled-back or discarded inserts, saved
    /// deletes). The object keeps its list markers until the lists are compacted, so that it can
    /// be inserted again without being listed twice, and stays a fault if it was one, so that
    /// reading it gives nil values.
    func forget(_ object: NSManagedObject) {
        if let identifier = object.identifier { registry.remove(identifier.identity) }
        object.flags = object.flags.intersection([.listMarkers, .fault]).union(.invalidated)
        object.managedObjectContext = nil
    }

    func retainRegisteredObjectsIfNeeded() {
        retainedObjects = retainsRegisteredObjects ? registry.allObjects : []
    }
}
