/// An abstract store that a program subclasses to keep objects wherever it likes, loading them
/// as Core Data asks for them.
///
/// Register the subclass for a store type with
/// `NSPersistentStoreCoordinator.registerStoreClass(_:type:)` and add stores of that type as any
/// other. The coordinator then calls:
/// - ``NSPersistentStore/loadMetadata()`` when the store is added; it sets ``NSPersistentStore/metadata`` (with `NSStoreUUIDKey` and
///   `NSStoreTypeKey`) or throws when the store cannot be used;
/// - ``execute(_:with:)`` with a fetch request, whose results the subclass returns as managed
///   objects (`context.object(with: newObjectID(for:referenceObject:))`) or object IDs;
/// - ``newValuesForObject(with:with:)`` to fill a fault, and
///   ``newValue(forRelationship:forObjectWith:with:)`` for a relationship the node left out.
///
/// The subclass identifies its objects by reference objects (strings or numbers, unique within
/// an entity hierarchy) and turns them into IDs with ``newObjectID(for:referenceObject:)``.
/// Core Data evaluates a fetch's predicate, sort descriptors, offset and limit on the values the
/// store returns, so a store may return every object of the entity.
// Used only under its coordinator's lock, like every store.
open class NSIncrementalStore: NSPersistentStore, @unchecked Sendable {
    /// The to-many destinations the last node of each object listed, by object and relationship
    /// name, so that reading the relationship needs no call to the subclass.
    var nodeDestinations: [ObjectIdentity: [String: [NSManagedObjectID]]] = [:]

    /// Returns an identifier for a new store at a location, recorded as its `NSStoreUUIDKey`
    /// when ``NSPersistentStore/loadMetadata()`` leaves none: a new UUID string.
    open class func identifierForNewStore(at storeURL: URL) -> Any {
        UUID().uuidString
    }

    /// Runs a request and returns its results.
    ///
    /// For a fetch request (`request.requestType == .fetchRequestType`, received as an
    /// `NSFetchRequest<NSFetchRequestResult>`): an array of the matching managed objects or
    /// object IDs; Core Data asks with `.managedObjectResultType`. Subclasses must override it.
    ///
    /// - Throws: The subclass's error; `NSPersistentStoreUnsupportedRequestTypeError` (134091)
    ///   from this class.
    open func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext?) throws -> Any {
        throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "\(Swift.type(of: self)) does not override execute(_:with:).")
    }

    /// Returns the values of an object, to fill its fault. Subclasses must override it.
    ///
    /// - Throws: An error when the store has no such object, or cannot read it.
    open func newValuesForObject(with objectID: NSManagedObjectID, with context: NSManagedObjectContext) throws -> NSIncrementalStoreNode {
        throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "\(Swift.type(of: self)) does not override newValuesForObject(with:with:).")
    }

    /// Returns the destinations of a relationship of an object: an `NSManagedObjectID` or `NSNull`
    /// for a to-one relationship; a set or an array of IDs for a to-many relationship.
    /// Subclasses must override it unless their nodes list every relationship.
    open func newValue(forRelationship relationship: NSRelationshipDescription, forObjectWith objectID: NSManagedObjectID,
                       with context: NSManagedObjectContext?) throws -> Any {
        throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "\(Swift.type(of: self)) does not override newValue(forRelationship:forObjectWith:with:).")
    }

    /// Returns permanent IDs for newly inserted objects, in the order of `array`; called before
    /// a save's request reaches ``execute(_:with:)``. Subclasses that save must override it.
    open func obtainPermanentIDs(for array: [NSManagedObject]) throws -> [NSManagedObjectID] {
        throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "\(Swift.type(of: self)) does not override obtainPermanentIDs(for:).")
    }

    /// Tells the store that a context registered objects of it, to keep their data at hand: like
    /// a retain of each ID, which ``managedObjectContextDidUnregisterObjects(with:)`` balances.
    ///
    /// A context calls it once after each operation that registered objects of the store: a
    /// fetch, with the objects it registered; a fault made for an ID (`object(with:)`, a
    /// relationship's destination); a save, with the objects it inserted, under their permanent
    /// IDs. The default does nothing.
    open func managedObjectContextDidRegisterObjects(with objectIDs: [NSManagedObjectID]) {}

    /// Tells the store that a context no longer has objects of it registered: like a release of
    /// each ID, balancing ``managedObjectContextDidRegisterObjects(with:)``.
    ///
    /// A context calls it for the objects it released (at its next operation), those a save
    /// deleted, and all of them at `reset()` or when it is deallocated. The default does nothing.
    open func managedObjectContextDidUnregisterObjects(with objectIDs: [NSManagedObjectID]) {}

    /// Returns the ID of the object of an entity that a reference object names in this store
    /// (see `ReferenceObjects`). Do not override it.
    open func newObjectID(for entity: NSEntityDescription, referenceObject data: Any) -> NSManagedObjectID {
        objectID(for: entity, reference: data)
    }

    /// Returns the reference object an ID of this store was made from (an integer comes back as
    /// an `NSNumber`). Do not override it.
    open func referenceObject(for objectID: NSManagedObjectID) -> Any {
        reference(of: objectID)
    }
}
