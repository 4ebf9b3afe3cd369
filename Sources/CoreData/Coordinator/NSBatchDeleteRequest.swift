/// A request that deletes objects from a SQLite store with SQL, without loading them into a
/// context.
///
/// Relationships of the deleted objects follow their delete rules: cascade deletes the
/// destinations, nullify clears the destinations' references (foreign keys and join-table rows),
/// and deny fails the whole request while a destination exists. Objects registered in contexts
/// stay until the program merges the deleted objects' IDs into them
/// (`NSManagedObjectContext.mergeChanges(fromRemoteContextSave:into:)`).
open class NSBatchDeleteRequest: NSPersistentStoreRequest {
    private let request: NSFetchRequest<NSFetchRequestResult>

    /// Creates a request that deletes the objects a fetch request finds; the request keeps a copy.
    public init(fetchRequest fetch: NSFetchRequest<NSFetchRequestResult>) {
        request = fetch.copy() as? NSFetchRequest<NSFetchRequestResult> ?? fetch
        super.init()
    }

    /// Creates a request that deletes the objects with the given IDs, which must all be of one
    /// entity; mixing entities makes the request fail when it runs.
    public convenience init(objectIDs objects: [NSManagedObjectID]) {
        let fetch = NSFetchRequest<NSFetchRequestResult>()
        fetch.entity = objects.first?.entity
        fetch.predicate = NSPredicate(format: "self IN %@", argumentArray: [objects])
        self.init(fetchRequest: fetch)
        objectIDs = objects
    }

    /// The IDs the request was created with, checked for one entity when it runs.
    private(set) var objectIDs: [NSManagedObjectID]?

    /// The fetch request that finds the objects to delete.
    open var fetchRequest: NSFetchRequest<NSFetchRequestResult> {
        request
    }

    /// What the request returns (`.resultTypeStatusOnly` by default).
    open var resultType: NSBatchDeleteRequestResultType = .resultTypeStatusOnly

    /// `NSPersistentStoreRequestType.batchDeleteRequestType`.
    open override var requestType: NSPersistentStoreRequestType {
        .batchDeleteRequestType
    }
}
