/// A slot's state before an event changed it, as the context's undo record keeps it.
struct SlotUndoState {
    /// A slot's value as the object held it.
    enum Value {
        /// An attribute's stored value, and whether it was of a type the attribute refuses.
        case attribute(Any?, isInvalid: Bool)
        case toOne(NSManagedObject?)
        /// The destinations in order.
        case toMany([NSManagedObject])
    }

    let slot: Int
    let value: Value
    /// Whether the slot counted as changed since the last save, so that restoring it restores
    /// the object's dirty state too.
    let wasChanged: Bool
}

extension NSManagedObject {
    /// A slot's current value in recorded form. The object must not be a fault.
    func undoValue(atSlot slot: Int) -> SlotUndoState.Value {
        switch layout.tags[slot] {
        case .attribute:
            return .attribute(values[slot], isInvalid: invalidSlots.contains(slot))
        case .toOne:
            return .toOne(toOneDestination(atSlot: slot))
        case .toMany:
            return .toMany(relatedObjects(atSlot: slot).objects)
        }
    }

    /// Whether a slot holds `value` now. Destinations compare by identity; an unordered to-many
    /// relationship compares as a set.
    func holds(_ value: SlotUndoState.Value, atSlot slot: Int) -> Bool {
        guard !isFault else { return false }
        switch value {
        case .attribute(let recorded, _):
            return ValueComparison.isEqual(recorded, values[slot])
        case .toOne(let recorded):
            return recorded === toOneDestination(atSlot: slot)
        case .toMany(let recorded):
            guard let current = (values[slot] as? RelatedObjects)?.objects, current.count == recorded.count else { return false }
            if layout.slots[slot].relationship?.isOrdered == true {
                return zip(current, recorded).allSatisfy { $0 === $1 }
            }
            return Set(current.map(ObjectIdentifier.init)) == Set(recorded.map(ObjectIdentifier.init))
        }
    }
}
