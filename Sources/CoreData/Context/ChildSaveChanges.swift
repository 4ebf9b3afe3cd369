/// What a child context's save pushes into its parent context. Objects appear by ID, and
/// relationships as IDs, so that the changes cross from the child's queue to the parent's without
/// carrying managed objects.
struct ChildSaveChanges {
    /// The new value of one property.
    enum Value {
        case attribute(Any?)
        case toOne(NSManagedObjectID?)
        /// An unordered to-many relationship: the destinations that joined and left it.
        case toMany(added: [NSManagedObjectID], removed: [NSManagedObjectID])
        /// An ordered to-many relationship: every destination, in order.
        case orderedToMany([NSManagedObjectID])
    }

    /// The changed properties of one object, by slot.
    struct ObjectChanges {
        let objectID: NSManagedObjectID
        let values: [(slot: Int, value: Value)]
    }

    /// Objects inserted in the child, with all their persistent properties.
    var inserted: [ObjectChanges] = []
    /// Objects updated in the child, with their changed persistent properties.
    var updated: [ObjectChanges] = []
    var deleted: [NSManagedObjectID] = []

    init(_ saved: NSManagedObjectContext.SavedObjects) {
        inserted = saved.inserted.map { object in
            let layout = object.layout
            let slots = layout.persistentAttributeSlots + layout.persistentToOneSlots + layout.persistentToManySlots
            return ObjectChanges(objectID: object.objectID, values: slots.map { ($0, Self.value(of: object, atSlot: $0)) })
        }
        updated = saved.updated.map { object in
            ObjectChanges(objectID: object.objectID, values: object.changedPersistentValues().map { ($0, Self.value(of: object, atSlot: $0)) })
        }
        deleted = saved.deleted.map(\.objectID)
    }

    private static func value(of object: NSManagedObject, atSlot slot: Int) -> Value {
        switch object.layout.slots[slot].kind {
        case .attribute:
            return .attribute(object.value(atSlot: slot))
        case .toOne:
            return .toOne(object.toOneDestinationID(atSlot: slot))
        case .toMany(let relationship):
            let related = object.relatedObjects(atSlot: slot)
            if relationship.isOrdered { return .orderedToMany(related.objects.map(\.objectID)) }
            return .toMany(added: related.added.map(\.objectID), removed: related.removed.map(\.objectID))
        }
    }
}
