/// The changes a save asks a store to make: the objects inserted, updated and deleted, and those
/// locked for optimistic locking.
///
/// A context's save hands one to each incremental store it writes to, through the store's
/// `execute(_:with:)`. A request whose four sets are all nil asks the store to save its metadata.
open class NSSaveChangesRequest: NSPersistentStoreRequest {
    private let inserted: Set<NSManagedObject>?
    private let updated: Set<NSManagedObject>?
    private let deleted: Set<NSManagedObject>?
    private let locked: Set<NSManagedObject>?

    /// Creates a request to save the given changes.
    ///
    /// - Parameters:
    ///   - insertedObjects: The objects inserted since the last save.
    ///   - updatedObjects: The objects changed since the last save.
    ///   - deletedObjects: The objects deleted since the last save.
    ///   - lockedObjects: The unchanged objects the context checks for optimistic locking.
    public init(inserted insertedObjects: Set<NSManagedObject>?, updated updatedObjects: Set<NSManagedObject>?,
                deleted deletedObjects: Set<NSManagedObject>?, locked lockedObjects: Set<NSManagedObject>?) {
        inserted = insertedObjects
        updated = updatedObjects
        deleted = deletedObjects
        locked = lockedObjects
        super.init()
    }

    /// The objects inserted since the last save.
    open var insertedObjects: Set<NSManagedObject>? { inserted }

    /// The objects changed since the last save.
    open var updatedObjects: Set<NSManagedObject>? { updated }

    /// The objects deleted since the last save.
    open var deletedObjects: Set<NSManagedObject>? { deleted }

    /// The unchanged objects the context checks for optimistic locking.
    open var lockedObjects: Set<NSManagedObject>? { locked }

    /// `NSPersistentStoreRequestType.saveRequestType`.
    open override var requestType: NSPersistentStoreRequestType {
        .saveRequestType
    }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSSaveChangesRequest(inserted: inserted, updated: updated, deleted: deleted, locked: locked)
        copy.affectedStores = affectedStores
        return copy
    }
}
