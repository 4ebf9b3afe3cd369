/// The object IDs a fetch found in one store, kept as primary keys and entity numbers (twelve
/// bytes a row) and made into `NSManagedObjectID`s only when asked for, so that a batched fetch of a
/// million rows holds megabytes instead of a million objects.
package final class FetchedObjectIDs {
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
        primaryKeys.append(primaryKey)
        entityIndexes.append(entityIndex(of: entity))
    }

    func objectID(at position: Int) -> NSManagedObjectID {
        objectID(primaryKey: primaryKeys[position], entityIndex: entityIndexes[position])
    }

    func primaryKey(at position: Int) -> Int64 {
        primaryKeys[position]
    }

    func entityIndex(at position: Int) -> UInt32 {
        entityIndexes[position]
    }

    /// The number that stands for an entity in this list, given to it now if it has none yet.
    func entityIndex(of entity: NSEntityDescription) -> UInt32 {
        if let index = entities.firstIndex(where: { $0 === entity }) { return UInt32(index) }
        entities.append(entity)
        return UInt32(entities.count - 1)
    }

    func entity(numbered index: UInt32) -> NSEntityDescription {
        entities[Int(index)]
    }

    /// The ID of an object of this store, given by its primary key and entity number.
    func objectID(primaryKey: Int64, entityIndex: UInt32) -> NSManagedObjectID {
        store.objectID(for: entities[Int(entityIndex)], primaryKey: primaryKey)
    }

    /// The IDs at `range`, made now.
    func objectIDs(in range: Range<Int>) -> [NSManagedObjectID] {
        range.map(objectID(at:))
    }
}
