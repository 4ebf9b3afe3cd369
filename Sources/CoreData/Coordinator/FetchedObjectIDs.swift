/// The object IDs a fetch found in one store, kept as primary keys and entity numbers (twelve
/// bytes a row) and made into `NSManagedObjectID`s only when asked for, so that a batched fetch of a
/// million rows holds megabytes instead of a million objects.
final class FetchedObjectIDs {
    let store: NSPersistentStore
    private var entities: [NSEntityDescription] = []
    private var primaryKeys: [Int64] = []
    private var entityIndexes: [UInt32] = []

    init(store: NSPersistentStore) {
        self.store = store
    }

    convenience init(_ objectIDs: [NSManagedObjectID], store: NSPersistentStore) {
        self.init(store: store)
        reserveCapacity(objectIDs.count)
        for objectID in objectIDs {
            if let primaryKey = objectID.primaryKey { append(primaryKey: primaryKey, entity: objectID.entity) }
        }
    }

    var count: Int {
        primaryKeys.count
    }

    func reserveCapacity(_ capacity: Int) {
        primaryKeys.reserveCapacity(capacity)
        entityIndexes.reserveCapacity(capacity)
    }

    func append(primaryKey: Int64, entity: NSEntityDescription) {
        let index = entities.firstIndex { $0 === entity } ?? {
            entities.append(entity)
            return entities.count - 1
        }()
        primaryKeys.append(primaryKey)
        entityIndexes.append(UInt32(index))
    }

    func objectID(at position: Int) -> NSManagedObjectID {
        store.objectID(for: entities[Int(entityIndexes[position])], primaryKey: primaryKeys[position])
    }

    /// The IDs at `range`, made now.
    func objectIDs(in range: Range<Int>) -> [NSManagedObjectID] {
        range.map(objectID(at:))
    }
}
