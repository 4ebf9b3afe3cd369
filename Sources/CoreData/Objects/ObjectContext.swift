/// What a managed object asks of its context: the one way from `Objects/` into the context's
/// workings. `NSManagedObjectContext` conforms; objects reach it through `objectContext`.
///
/// Objects call it to load their faults and relationships, to report their changes and to let
/// the context record them for undo. Everything else of the context stays out of their reach.
protocol ObjectContext: AnyObject {
    // MARK: Faults

    /// The row of a fault, from the context's parent or its stores.
    func loadFault(_ object: NSManagedObject) -> FaultLoad

    /// Whether a row an object holds may not fulfil its fault: changed by a later save, or older
    /// than the context's staleness interval.
    func isStale(_ row: RowSnapshot) -> Bool

    /// Handles a fault whose row is gone (`property` fired it, when known).
    func handleInaccessibleFault(_ object: NSManagedObject, triggeredBy property: NSPropertyDescription?)

    // MARK: Relationships

    /// The object of an ID, registered in the context (a fault when it was not registered).
    func object(with objectID: NSManagedObjectID) -> NSManagedObject

    /// The destinations of an unloaded to-many relationship, registered in the context.
    func loadDestinations(of object: NSManagedObject, slot: Int) -> [NSManagedObject]

    /// The IDs of the destinations of a to-many relationship as the store has them.
    func destinationIDs(of object: NSManagedObject, slot: Int) -> [NSManagedObjectID]

    /// The value of a fetched property of an object.
    func evaluate(_ property: NSFetchedPropertyDescription, for object: NSManagedObject) -> Any?

    // MARK: Changes

    /// Records that an object's values or state changed.
    func objectDidChange(_ object: NSManagedObject)

    /// Registers an object under an ID it just got.
    func register(_ object: NSManagedObject, as objectID: NSManagedObjectID)

    // MARK: Undo

    /// Whether the context records changes for undo; setters ask before every change.
    var recordsUndo: Bool { get }

    /// Records a slot's value before a setter changes it.
    func recordUndoState(of object: NSManagedObject, slot: Int)

    /// The states the current event recorded for an object's slots; nil when the context records
    /// nothing.
    func recordedSlotStates(of object: NSManagedObject) -> [SlotUndoState]?

    // MARK: Concurrency

    /// Checks that the caller runs on the context's queue, when the context checks.
    func checkConcurrency(of operation: @autoclosure () -> String)
}

/// What loading a fault's row found.
enum FaultLoad {
    case row(RowSnapshot)
    /// The store has no such row any more.
    case missing
    /// The store could not be read (or the object belongs to no store of this coordinator).
    case failed(Error)
}

extension NSManagedObject {
    /// The object's context, as the object uses it.
    var objectContext: (any ObjectContext)? {
        managedObjectContext
    }
}
