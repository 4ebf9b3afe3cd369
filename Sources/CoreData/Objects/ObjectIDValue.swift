/// What an object ID holds, without the ID object: the entity, the key and the store.
///
/// A fetched row carries one, so that fetching makes no `NSManagedObjectID` until something asks
/// an object for its ID; `NSManagedObjectID` wraps one.
// Every property is immutable, and the entity is a frozen model object.
struct ObjectIDValue: @unchecked Sendable {
    /// The entity of the identified object.
    let entity: NSEntityDescription
    /// The primary key of a permanent ID; the bits of a temporary ID's counter.
    let keyNumber: Int64
    /// The store object (`NSPersistentStore.storeNumber`); 0 for a temporary ID.
    let storeNumber: UInt32
    /// The store's interned UUID (`NSPersistentStore.identityNumber`); 0 for a temporary ID.
    let identityNumber: UInt32

    /// The value of a permanent ID of a store's row.
    init(entity: NSEntityDescription, primaryKey: Int64, store: NSPersistentStore) {
        self.init(entity: entity, keyNumber: primaryKey, storeNumber: store.storeNumber, identityNumber: store.identityNumber)
    }

    init(entity: NSEntityDescription, keyNumber: Int64, storeNumber: UInt32, identityNumber: UInt32) {
        self.entity = entity
        self.keyNumber = keyNumber
        self.storeNumber = storeNumber
        self.identityNumber = identityNumber
    }

    /// The key: a permanent ID has a store, a temporary one has none.
    var key: NSManagedObjectID.Key {
        storeNumber == 0 ? .temporary(UInt64(bitPattern: keyNumber)) : .permanent(keyNumber)
    }

    /// What makes two IDs equal: the entity hierarchy, the store and the key.
    var identity: ObjectIdentity {
        identity(inHierarchyOf: entity.layout)
    }

    /// The store that holds the object; nil for a temporary ID, or once the store is deallocated.
    var persistentStore: NSPersistentStore? {
        StoreIdentityRegistry.shared.store(numbered: storeNumber)
    }

    /// The identity, given the layout of the entity, which an object or a fetch has at hand.
    func identity(inHierarchyOf layout: EntityLayout) -> ObjectIdentity {
        ObjectIdentity(root: layout.rootIdentifier, key: key, store: identityNumber)
    }
}
