// The objects' side of undo: setters report a slot they are about to change, and an undo
// restores a recorded slot value, keeping change tracking true to the restored value.
extension NSManagedObject {
    /// Lets the context record a slot's value before a setter changes it, when the context has
    /// an undo manager. Setters call it before they change the slot.
    ///
    /// Without an undo manager this costs a flag test, a weak load and a nil check: bulk inserts
    /// pay nothing more.
    @inline(__always)
    func willChangeSlot(_ slot: Int) {
        // An object inserted in this event leaves when its insert is undone: its values need no record.
        guard !flags.contains(.insertedInEvent), let context = objectContext, context.recordsUndo else { return }
        context.recordUndoState(of: self, slot: slot)
    }

    func willChangeValueImplementation(forKey key: String) {
        guard let slot = layout.slotIndex(forKey: key) else { return }
        willChangeSlot(slot)
    }

    /// Puts a recorded value back in its slot, directly: inverse relationships are restored by
    /// the record's other slots, and custom accessors are not called, as on Apple platforms.
    func restore(_ state: SlotUndoState) {
        let slot = state.slot
        fireFault()
        switch state.value {
        case .attribute(let value, let isInvalid):
            values[slot] = value
            if isInvalid { invalidSlots.insert(slot) } else { invalidSlots.remove(slot) }
        case .toOne(let destination):
            values[slot] = destination
        case .toMany(let destinations):
            relatedObjects(atSlot: slot).replace(with: destinations)
        }
        markRestored(slot: slot, wasChanged: state.wasChanged)
    }

    /// Records a restored slot as changed only if it was changed before the undone event or now
    /// differs from the committed value, so that undoing every change since the last save leaves
    /// the object without changes (`hasChanges` agrees with `changedValues()`).
    private func markRestored(slot: Int, wasChanged: Bool) {
        if flags.contains(.inserted) || flags.contains(.deleted) {
            changedSlots.insert(slot)
        } else {
            let info = layout.slots[slot]
            let differs = !info.isTransient && !isCommittedValue(atSlot: slot, kind: info.kind)
            if wasChanged || differs { changedSlots.insert(slot) } else { changedSlots.remove(slot) }
            if changedSlots.isEmpty { flags.remove(.updated) } else { flags.insert(.updated) }
        }
        objectContext?.objectDidChange(self)
    }

    /// The persistent values changed since the context last processed its pending changes, read
    /// from the context's record of the event; without one (no undo manager), or for an object
    /// inserted in this event, all changed values.
    func changedValuesForCurrentEventImplementation() -> [String: Any] {
        guard !flags.contains(.insertedInEvent), let states = objectContext?.recordedSlotStates(of: self) else {
            return changedValuesImplementation()
        }
        var result: [String: Any] = [:]
        for state in states where !layout.slots[state.slot].isTransient {
            guard !holds(state.value, atSlot: state.slot) else { continue }
            result[layout.slots[state.slot].name] = value(atSlot: state.slot) ?? NSNull()
        }
        return result
    }
}
