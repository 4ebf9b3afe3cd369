/// What the stores a program subclasses (`NSIncrementalStore`, `NSAtomicStore`) share.
extension NSPersistentStore {
    /// The ID of the object of an entity that a reference object names in this store: equal
    /// reference objects give equal IDs, in every coordinator of the process that adds a store
    /// with this store's identifier. Integers from 1 are kept in the ID, so that its URI names
    /// them; other reference objects are numbered as they come.
    func objectID(for entity: NSEntityDescription, reference: Any) -> NSManagedObjectID {
        objectID(for: entity, primaryKey: ReferenceObjects.shared.key(for: reference, inStore: identityNumber))
    }

    /// The reference object an ID of this store was made from; `NSNull` for an ID of another store.
    func reference(of objectID: NSManagedObjectID) -> Any {
        guard let key = objectID.primaryKey, objectID.identityNumber == identityNumber else { return NSNull() }
        return ReferenceObjects.shared.object(for: key, inStore: identityNumber) ?? NSNull()
    }

    /// The error of a save to a store a program subclasses, which is not available yet.
    func customStoreSavingUnavailable() -> NSError {
        CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "Saving to a store of class \(Swift.type(of: self)) is not available yet.")
    }
}
