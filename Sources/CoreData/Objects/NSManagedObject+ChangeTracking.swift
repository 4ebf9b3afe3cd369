// Change tracking: which slots changed since the last fetch or save, and their committed values.
extension NSManagedObject {
    /// Records a change to a slot and tells the context the object is dirty.
    func markChanged(slot: Int) {
        changedSlots.insert(slot)
        if flags.contains(.deleted) { return }
        if flags.contains(.inserted) {
            // An object inserted in an earlier event is reported as updated by the next
            // ObjectsDidChange; one inserted in this event is reported as inserted only.
            if !flags.contains(.insertedInEvent) { objectContext?.objectDidChange(self) }
            return
        }
        if !flags.contains(.updated) {
            flags.insert(.updated)
        }
        objectContext?.objectDidChange(self)
    }

    func changedValuesImplementation() -> [String: Any] {
        var result: [String: Any] = [:]
        for slot in changedPersistentValues() {
            result[layout.slots[slot].name] = value(atSlot: slot) ?? NSNull()
        }
        return result
    }

    func committedValuesImplementation(forKeys keys: [String]?) -> [String: Any] {
        fireFault()
        guard let snapshot, let context = objectContext else { return [:] }
        let slots = keys.map { $0.compactMap(layout.slotIndex(forKey:)) }
            ?? layout.slots.filter { !$0.isTransient }.map(\.index)
        var result: [String: Any] = [:]
        for slot in slots where !layout.slots[slot].isTransient {
            result[layout.slots[slot].name] = committedValue(atSlot: slot, snapshot: snapshot, context: context) ?? NSNull()
        }
        return result
    }

    private func committedValue(atSlot slot: Int, snapshot: RowSnapshot, context: any ObjectContext) -> Any? {
        switch layout.slots[slot].kind {
        case .attribute:
            let value = snapshot.values[slot]
            return (value as? LazyAttributeValue)?.load() ?? value
        case .toOne:
            return (snapshot.values[slot] as? NSManagedObjectID).map { context.object(with: $0) }
        case .toMany(let relationship):
            let committed = (values[slot] as? RelatedObjects)?.committed ?? relatedObjects(atSlot: slot).committed
            return relationship.isOrdered ? NSOrderedSet(array: committed) : NSSet(array: committed)
        }
    }

    /// The persistent slots whose current value differs from the committed one.
    func changedPersistentValues() -> [Int] {
        guard !isFault else { return [] }
        return changedSlots.filter { slot in
            let info = layout.slots[slot]
            guard !info.isTransient else { return false }
            return !isCommittedValue(atSlot: slot, kind: info.kind)
        }
    }

    func isCommittedValue(atSlot slot: Int, kind: EntityLayout.SlotKind) -> Bool {
        switch kind {
        case .attribute:
            guard let snapshot else { return values[slot] == nil }
            return values.hasSameValue(atSlot: slot, as: snapshot.values)
        case .toOne:
            let current = toOneDestinationID(atSlot: slot)
            guard let snapshot else { return current == nil }
            return current == snapshot.values[slot] as? NSManagedObjectID
        case .toMany(let relationship):
            return !((values[slot] as? RelatedObjects)?.hasChanges(ordered: relationship.isOrdered) ?? false)
        }
    }

    /// The object's values in row form: to-one destinations as object IDs, to-many and transient
    /// slots nil.
    var rowValues: SlotValues {
        var row = values
        for slot in layout.relationshipSlots {
            row[slot] = toOneDestinationID(atSlot: slot)
        }
        for slot in layout.transientSlots {
            row[slot] = nil
        }
        return row
    }

    /// Forgets the recorded changes after a save: the current values become the committed ones.
    func commitChanges(as snapshot: RowSnapshot) {
        self.snapshot = snapshot
        changedSlots.removeAll()
        flags.remove([.inserted, .updated])
        for slot in layout.relationshipSlots {
            (values[slot] as? RelatedObjects)?.commit()
        }
    }

    /// Restores the committed values, discarding every change (rollback).
    func revertChanges() {
        flags.remove(.updated)
        invalidSlots.removeAll()
        defer { changedSlots.removeAll() }
        guard !isFault, let snapshot, let context = objectContext else { return }
        for slot in changedSlots {
            switch layout.slots[slot].kind {
            case .attribute:
                if !layout.slots[slot].isTransient { values.setValue(atSlot: slot, from: snapshot.values) }
            case .toOne:
                values[slot] = (snapshot.values[slot] as? NSManagedObjectID).map { context.object(with: $0) }
            case .toMany:
                (values[slot] as? RelatedObjects)?.revert()
            }
        }
    }
}
