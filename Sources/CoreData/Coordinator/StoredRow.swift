/// A store's row seen through key-value coding, so that predicates, sort descriptors and
/// dictionary fetches evaluated in memory read it like an object: to-one relationships lead to
/// other rows, to-many ones to sets of rows (arrays when ordered).
final class StoredRow: KeyValueCodingReadable, ObjectReference, Hashable {
    let row: RowSnapshot
    unowned let store: any PersistentStoreEngine

    init(row: RowSnapshot, store: any PersistentStoreEngine) {
        self.row = row
        self.store = store
    }

    var referencedObject: AnyHashable { row.objectIDValue.identity }

    func keyValue(forKey key: String) throws -> Any? {
        let layout = row.objectIDValue.entity.layout
        guard let slot = layout.slotIndex(forKey: key) else {
            throw CoreDataError.unknownKey(key, entity: row.objectIDValue.entity.entityName)
        }
        switch layout.slots[slot].kind {
        case .attribute:
            let value = row.values[slot]
            return (value as? LazyAttributeValue)?.load() ?? value
        case .toOne:
            return try (row.values[slot] as? NSManagedObjectID).flatMap(store.snapshot(for:)).map { StoredRow(row: $0, store: store) }
        case .toMany(let relationship):
            let destinations = try store.destinationIDs(of: row.objectID, relationship: relationship)
            let rows = try store.snapshots(for: destinations).map { StoredRow(row: $0, store: store) }
            return relationship.isOrdered ? rows : Set(rows)
        }
    }

    static func == (lhs: StoredRow, rhs: StoredRow) -> Bool {
        lhs.row.objectIDValue.identity == rhs.row.objectIDValue.identity
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(row.objectIDValue.identity)
    }
}
