// The snapshots of merge conflicts: an object's attributes and to-one relationships by name.
extension NSManagedObject {
    /// `values` (in slot order, object or snapshot form) as a conflict snapshot: persistent
    /// attributes and to-one relationships by name, to-ones as object IDs, nil as `NSNull`.
    func conflictSnapshot(of values: SlotValues?) -> [String: Any]? {
        guard let values else { return nil }
        var snapshot: [String: Any] = [:]
        for slot in layout.persistentAttributeSlots + layout.persistentToOneSlots where values.indices.contains(slot) {
            let value = values[slot]
            snapshot[layout.slots[slot].name] = (value as? NSManagedObject)?.objectID ?? value.flatMap(ValueUnwrapping.nonNull) ?? NSNull()
        }
        return snapshot
    }
}
