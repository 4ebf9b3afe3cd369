// Which store a new object is saved in: the store `assign(_:to:)` chose for it, or else (as
// the save and `obtainPermanentIDs(for:)` decide) the first store of the coordinator that holds
// its entity, a writable one first.
extension NSManagedObjectContext {
    /// Specifies the store in which a newly inserted object will be saved.
    ///
    /// It is only needed when the coordinator has several writable stores whose configurations
    /// hold the object's entity; otherwise the object goes to the store that holds its entity.
    /// The choice is checked when the object gets its permanent ID (at the latest, when it is
    /// saved): a store that is not one of this context's coordinator, or whose configuration
    /// does not hold the object's entity, makes that save, or `obtainPermanentIDs(for:)`, throw
    /// `NSPersistentStoreOperationError` (134070), and leaves the object unsaved.
    ///
    /// - Parameters:
    ///   - object: A managed object inserted into this context and not saved yet. Other objects,
    ///     and objects that already have a permanent ID, are ignored: a saved object stays in
    ///     its store.
    ///   - store: A store of this context's coordinator, such as one from `persistentStore(for:)`.
    public func assign(_ object: Any, to store: NSPersistentStore) {
        checkConcurrency(of: "assign(_:to:)")
        guard let object = object as? NSManagedObject, object.managedObjectContext === self,
              object.isInserted, object.identifier?.isTemporaryID ?? true else { return }
        storeAssignments.assign(object, to: store)
    }

    /// The store `assign(_:to:)` chose for a new object, checked against the coordinator; nil
    /// when none was chosen.
    ///
    /// - Throws: `NSPersistentStoreOperationError` for a store outside the coordinator or whose
    ///   configuration lacks the object's entity.
    func assignedStore(for object: NSManagedObject, coordinator: NSPersistentStoreCoordinator) throws -> NSPersistentStore? {
        guard let assigned = storeAssignments.store(for: object) else { return nil }
        guard assigned.persistentStoreCoordinator === coordinator else {
            throw CoreDataError.make(
                NSPersistentStoreOperationError,
                "The store an object of \(object.entity.entityName) was assigned to is not a store of this context's coordinator.",
                userInfo: [NSAffectedObjectsErrorKey: [object], NSAffectedStoresErrorKey: [assigned]]
            )
        }
        guard assigned.holds(object.entity, in: coordinator.managedObjectModel) else {
            throw CoreDataError.make(
                NSPersistentStoreOperationError,
                "The store an object of \(object.entity.entityName) was assigned to does not hold the entity in its configuration '\(assigned.configurationName)'.",
                userInfo: [NSAffectedObjectsErrorKey: [object], NSAffectedStoresErrorKey: [assigned]]
            )
        }
        return assigned
    }
}

/// The stores `assign(_:to:)` chose for a context's inserted objects, holding neither: an entry
/// whose object is gone is ignored, and dropped at the next assignment.
struct StoreAssignments {
    private struct Assignment {
        weak var object: NSManagedObject?
        weak var store: NSPersistentStore?
    }

    private var assignments: [ObjectIdentifier: Assignment] = [:]

    mutating func assign(_ object: NSManagedObject, to store: NSPersistentStore) {
        assignments = assignments.filter { $0.value.object?.isInserted == true }
        assignments[ObjectIdentifier(object)] = Assignment(object: object, store: store)
    }

    /// Whether there is no assignment to look up: `store(for:)` then gives nil for every object.
    var isEmpty: Bool {
        assignments.isEmpty
    }

    /// The store assigned to an object, while the object is an unsaved insert.
    func store(for object: NSManagedObject) -> NSPersistentStore? {
        guard !assignments.isEmpty, let assignment = assignments[ObjectIdentifier(object)],
              assignment.object === object, object.isInserted else { return nil }
        return assignment.store
    }
}
