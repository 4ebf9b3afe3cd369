// Optimistic locking at save: when a store finds that a row changed since this context read it,
// the context lists every conflict of the save against the rows as they are now, lets the merge
// policy resolve them, and saves again.
extension NSManagedObjectContext {
    /// How many times a save resolves conflicts and tries again before giving up.
    static let maximumConflictRounds = 3

    /// The optimistic-locking conflicts of the objects a save changes or deletes: those whose row
    /// has another version in the store now, or was deleted there (deleting it again is no conflict).
    func optimisticLockingConflicts(in saved: SavedObjects) throws -> [NSMergeConflict] {
        let candidates = (saved.updated + saved.deleted).filter { !$0.objectID.isTemporaryID } + unchangedObjectsCheckedForConflicts()
        // Read before the store read below refreshes the cache with the rows it finds.
        let objectIDs = candidates.map(\.objectID)
        let cachedRows = try parent == nil ? requireCoordinator().cachedRows(of: objectIDs, for: self) : objectIDs.map { _ in nil }
        let rows = try currentRows(of: objectIDs, usingCache: false)
        return zip(candidates, cachedRows).compactMap { object, cached in
            let current = rows[object.objectID.identity]
            if current == nil && object.isDeleted { return nil }
            guard current?.version != object.snapshot?.version else { return nil }
            return NSMergeConflict(source: object, cachedRow: cached, persistedRow: current)
        }
    }

    func detectConflictsImplementation(for object: NSManagedObject) {
        guard object.managedObjectContext === self, !object.objectID.isTemporaryID else { return }
        object.fireFault()
        if !objectsCheckedForConflicts.contains(where: { $0 === object }) {
            objectsCheckedForConflicts.append(object)
        }
    }

    /// The objects marked with `detectConflicts(for:)` that a save does not write: their rows are
    /// checked for another version (the rows it writes are checked anyway).
    func unchangedObjectsCheckedForConflicts() -> [NSManagedObject] {
        objectsCheckedForConflicts.filter { $0.managedObjectContext === self && !$0.hasChanges && $0.snapshot != nil }
    }

    /// Resolves one conflict as a built-in policy does (see `NSMergePolicy`).
    func resolve(_ conflict: NSMergeConflict, as type: NSMergePolicyType) throws {
        let object = conflict.sourceObject
        guard object.managedObjectContext === self else { return }
        // A conflict made with the public initializer carries no row: read it again.
        guard let row = try conflict.persistedRow ?? loadSnapshot(for: object.objectID) else {
            // The row is gone: nothing of the object can be written any more.
            object.flags.insert([.deleted, .deletePropagated, .inaccessible])
            return
        }
        if object.isDeleted {
            if type == .rollbackMergePolicyType {
                object.flags.remove([.deleted, .deletePropagated])
                object.revertChanges()
                if !object.isFault { object.turnIntoFault(keeping: row) }
            } else {
                object.snapshot = row
            }
            return
        }
        switch type {
        case .mergeByPropertyStoreTrumpMergePolicyType:
            let changedElsewhere = Set(persistentSlots(of: object).filter { !Self.sameValue(object.snapshot?.values[$0], row.values[$0]) })
            rebase(object, onto: row, keeping: object.changedSlots.filter { !changedElsewhere.contains($0) })
        case .mergeByPropertyObjectTrumpMergePolicyType:
            rebase(object, onto: row, keeping: Array(object.changedSlots))
        case .overwriteMergePolicyType:
            rebase(object, onto: row, keeping: Array(Set(persistentSlots(of: object)).union(object.changedSlots)))
        case .rollbackMergePolicyType:
            refreshImplementation(object, mergeChanges: false, snapshot: row)
        case .errorMergePolicyType:
            return
        }
        object.awake(fromSnapshotEvents: .mergePolicy)
    }

    /// The slots of an object's row: persistent attributes and to-one relationships.
    private func persistentSlots(of object: NSManagedObject) -> [Int] {
        object.layout.persistentAttributeSlots + object.layout.persistentToOneSlots
    }

    /// Whether two row values are the same value (object IDs by identity, others as predicates compare).
    private static func sameValue(_ lhs: Any?, _ rhs: Any?) -> Bool {
        if let lhs = lhs as? NSManagedObjectID, let rhs = rhs as? NSManagedObjectID { return lhs == rhs }
        return ValueComparison.isEqual(lhs, rhs)
    }
}
