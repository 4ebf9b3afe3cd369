/// What one event changed in a context, kept as the state before the change: the value each
/// changed slot held when the event first touched it, and whether each inserted or deleted object
/// was in the context before.
///
/// The context records into one while it has an undo manager, registers it as the event's undo
/// action when it processes pending changes, and applies it to undo; applying it records the
/// opposite change into a new record, the redo.
final class UndoRecord {
    /// Everything recorded about one object.
    struct ObjectState {
        let object: NSManagedObject
        var slots: [SlotUndoState] = []
        var captured = SlotSet()
        /// Whether the object was in the context (registered and not deleted) before the event;
        /// nil when the event did not insert or delete it.
        var existed: Bool?

        var isEmpty: Bool { slots.isEmpty && existed == nil }
    }

    private(set) var objects: [ObjectState] = []
    private var indexByObject: [ObjectIdentifier: Int] = [:]
    /// The index of the object recorded last: setters usually change one object several times
    /// in a row, and this spares them the dictionary lookup.
    private var lastIndex: Int?

    var isEmpty: Bool { objects.isEmpty }

    /// Records the value of `slot` unless the event already changed the slot, so that the record
    /// keeps the value from before the event's first change.
    func captureSlot(_ slot: Int, of object: NSManagedObject) {
        let index = self.index(of: object)
        guard !objects[index].captured.contains(slot) else { return }
        objects[index].captured.insert(slot)
        object.fireFault()
        let state = SlotUndoState(slot: slot, value: object.undoValue(atSlot: slot), wasChanged: object.changedSlots.contains(slot))
        objects[index].slots.append(state)
    }

    /// Records whether the object was in the context before the event first inserted or
    /// deleted it.
    func captureMembership(of object: NSManagedObject, existed: Bool) {
        let index = self.index(of: object)
        if objects[index].existed == nil {
            objects[index].existed = existed
        }
    }

    /// The recorded slot states of an object, empty when the event did not change it.
    func slotStates(of object: NSManagedObject) -> [SlotUndoState] {
        indexByObject[ObjectIdentifier(object)].map { objects[$0].slots } ?? []
    }

    /// The record without what the event changed back (slots holding their recorded value,
    /// objects in the context as before), or nil when nothing is left: such an event has nothing
    /// to undo.
    func removingUnchanged(isInContext: (NSManagedObject) -> Bool) -> UndoRecord? {
        let kept = UndoRecord()
        for var state in objects {
            let object = state.object
            if let existed = state.existed, existed == isInContext(object) {
                state.existed = nil
            }
            // An object out of the context both before and after only matters for its membership.
            if state.existed == nil && !isInContext(object) { continue }
            state.slots.removeAll { object.holds($0.value, atSlot: $0.slot) }
            guard !state.isEmpty else { continue }
            kept.indexByObject[ObjectIdentifier(object)] = kept.objects.count
            kept.objects.append(state)
        }
        return kept.isEmpty ? nil : kept
    }

    // MARK: Private

    private func index(of object: NSManagedObject) -> Int {
        if let lastIndex, objects[lastIndex].object === object { return lastIndex }
        let key = ObjectIdentifier(object)
        let index = indexByObject[key] ?? {
            objects.append(ObjectState(object: object))
            indexByObject[key] = objects.count - 1
            return objects.count - 1
        }()
        lastIndex = index
        return index
    }
}
