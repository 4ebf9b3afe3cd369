/// A store that names its objects by reference objects: the stores a program subclasses
/// (`NSIncrementalStore`, `NSAtomicStore`).
protocol ReferenceObjectNaming: NSPersistentStore {}

/// What the stores a program subclasses share.
extension NSPersistentStore {
    /// The ID of the object of an entity that a reference object names in this store: equal
    /// reference objects give equal IDs, in every coordinator of the process that adds a store
    /// with this store's identifier. Integers from 1 are kept in the ID, so that its URI names
    /// them; other reference objects are numbered as they come.
    func objectID(for entity: NSEntityDescription, reference: Any) -> NSManagedObjectID {
        objectID(for: entity, primaryKey: ReferenceObjects.shared.key(for: reference, inStore: identityNumber))
    }

    /// Whether the store names its objects by reference objects (a store a program subclasses),
    /// whose IDs a URI may name by a string.
    var hasReferenceObjects: Bool {
        self is ReferenceObjectNaming
    }

    /// The reference object an ID of this store was made from; `NSNull` for an ID of another store.
    func reference(of objectID: NSManagedObjectID) -> Any {
        guard let key = objectID.primaryKey, objectID.identityNumber == identityNumber else { return NSNull() }
        return ReferenceObjects.shared.object(for: key, inStore: identityNumber) ?? NSNull()
    }

    /// The context whose request the coordinator is running, which the subclass's methods take.
    func requestingContext() throws -> NSManagedObjectContext {
        guard let context = persistentStoreCoordinator?.requestingContext else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "The store \(Swift.type(of: self)) was asked for data outside a context's request.")
        }
        return context
    }

    /// Gives the new objects of a save their permanent IDs before the subclass sees them, as
    /// Apple's stores do, through the context (which registers them under their new IDs).
    func assignPermanentIDs(to objects: [NSManagedObject], in context: NSManagedObjectContext) throws {
        let temporary = objects.filter(\.objectID.isTemporaryID)
        if !temporary.isEmpty { try context.obtainPermanentIDs(for: temporary) }
    }
}
