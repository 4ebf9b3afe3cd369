/// A fetch request resolved against the model, in the form the coordinator hands to a store.
package struct FetchPlan {
    /// The entity the request names.
    let entity: NSEntityDescription
    /// The entities whose rows match: the entity, plus its sub-entities when they are included.
    let entities: [NSEntityDescription]
    let predicate: NSPredicate?
    let sortDescriptors: [NSSortDescriptor]
    /// The largest number of rows; 0 means no limit.
    let limit: Int
    let offset: Int

    /// The page of already filtered and sorted results that the offset and limit select.
    func page<Element>(of results: [Element]) -> [Element] {
        let start = min(offset, results.count)
        let end = limit > 0 ? min(start.saturatingAdding(limit), results.count) : results.count
        return Array(results[start..<end])
    }
}

/// One stored row a save updates, deletes or checks: its ID, its values in snapshot form (to-one
/// destinations as object IDs) and the version the context last saw.
package struct RowChange {
    package let objectID: NSManagedObjectID
    package let values: SlotValues
    /// The slots to write for an update.
    package let changedSlots: SlotSet
    /// The optimistic-locking version read by the context.
    package let version: Int64
}

/// One new row a save writes: its entity, its values in snapshot form, and the ID the save's
/// other rows refer to it by. An object nothing asked the ID of has none (a bulk insert makes
/// no temporary IDs): the store gives it its permanent ID directly.
package struct RowInsert {
    package let entity: NSEntityDescription
    /// The object's ID when it has one: temporary, or permanent from `obtainPermanentIDs(for:)`.
    package let objectID: NSManagedObjectID?
    package let values: SlotValues

    /// The temporary ID the save's other rows may refer to the row by.
    var temporaryID: NSManagedObjectID? {
        objectID.flatMap { $0.isTemporaryID ? $0 : nil }
    }
}

/// A change to the destinations of a to-many relationship that the destination rows' foreign
/// keys do not capture by themselves: join-table rows (many-to-many) and positions (ordered).
package struct ToManyChange {
    let owner: NSManagedObjectID
    let relationship: NSRelationshipDescription
    let added: [NSManagedObjectID]
    let removed: [NSManagedObjectID]
    /// The full destination order after the save, for ordered relationships.
    let orderedDestinations: [NSManagedObjectID]?
}

/// Everything one save writes into one store, applied in a single transaction.
package struct StoreSaveChanges {
    package var inserts: [RowInsert] = []
    package var updates: [RowChange] = []
    package var deletes: [RowChange] = []
    package var toManyChanges: [ToManyChange] = []
    /// Unchanged rows that must still have the version they were read at (the rows of objects
    /// passed to `detectConflicts(for:)`); a row with another version, or gone, fails the save.
    package var lockChecks: [RowChange] = []
    /// New store metadata to write with the save, when the app changed it.
    package var metadata: [String: Any]?
    /// Whether these changes are the whole save, no other store taking part: the store may then
    /// commit them in `beginSave` already, as nothing can roll a written save back after it.
    package var isWholeSave = false
    /// The saved objects themselves, for the stores whose contract names objects
    /// (`NSIncrementalStore`, `NSAtomicStore`).
    var objects = SavedStoreObjects()

    var isEmpty: Bool {
        inserts.isEmpty && updates.isEmpty && deletes.isEmpty && toManyChanges.isEmpty && lockChecks.isEmpty && metadata == nil
    }
}

/// The objects of one store's share of a save.
struct SavedStoreObjects {
    /// The objects of `StoreSaveChanges.inserts`, in the same order.
    var inserted: [NSManagedObject] = []
    /// Every changed object of the store, its to-many relationships included.
    var updated: [NSManagedObject] = []
    /// The deleted objects of the store (`StoreSaveChanges.deletes`).
    var deleted: [NSManagedObject] = []
    /// The unchanged objects checked for optimistic locking (`StoreSaveChanges.lockChecks`).
    var locked: [NSManagedObject] = []
}

/// What a store reports after a save.
package struct StoreSaveResult {
    /// The permanent ID of each inserted row, in the order of `StoreSaveChanges.inserts` (the
    /// row's own ID when it already was permanent).
    package var permanentIDs: [NSManagedObjectID] = []
    /// The store generation the saved rows belong to, once the save has committed.
    var generation = 0

    package init(permanentIDs: [NSManagedObjectID] = []) {
        self.permanentIDs = permanentIDs
    }
}

/// A row a save found changed, or deleted, in its store since the context read it (optimistic
/// locking). The store wrote nothing of the save; the context resolves the conflicts its merge
/// policy can and tries again.
package struct VersionConflict: Error {
    let objectID: NSManagedObjectID
    /// The version the context read.
    let readVersion: Int64
    /// The version the store holds now; nil when the row is gone.
    let storedVersion: Int64?

    package init(objectID: NSManagedObjectID, readVersion: Int64, storedVersion: Int64?) {
        self.objectID = objectID
        self.readVersion = readVersion
        self.storedVersion = storedVersion
    }

    /// The error of a save whose conflict is not resolved (133020).
    var error: NSError {
        let stored = storedVersion.map { "was changed in its store (version \($0))" } ?? "was deleted from its store"
        return CoreDataError.make(
            NSManagedObjectMergeError,
            "Could not merge changes: the object \(objectID) \(stored) since it was read (version \(readVersion)).",
            userInfo: [
                NSPersistentStoreSaveConflictsErrorKey: [["objectID": objectID, "oldVersion": readVersion, "newVersion": storedVersion ?? 0]],
                NSAffectedObjectsErrorKey: [objectID],
            ]
        )
    }
}

/// What a store's share of a save came to.
package enum StoreSaveOutcome {
    /// Written, in a transaction that is still open; or, for changes that are the whole save
    /// (`StoreSaveChanges.isWholeSave`), committed already, when the store could do it at once.
    case written(StoreSaveResult)
    /// Not written: a row changed since it was read. The store has rolled back its writes (and
    /// may hold the rows locked until the save is over, see `PersistentStoreEngine.beginSave`).
    case conflict(VersionConflict)
}
