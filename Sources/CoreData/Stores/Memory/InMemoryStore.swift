/// The in-memory persistent store (`NSInMemoryStoreType`): rows live in dictionaries for the
/// lifetime of the store, and fetches evaluate predicates and sort descriptors in memory with the
/// same evaluator contexts use.
// Used only under its coordinator's lock, like every store.
final class InMemoryStore: NSPersistentStore, PersistentStoreEngine, @unchecked Sendable {
    private var rows: [NSManagedObjectID: RowSnapshot] = [:]
    /// Insertion order of rows, so unsorted fetches are stable.
    private var order: [NSManagedObjectID] = []
    /// The destinations of to-many relationships, by owner and relationship name.
    private var toMany: [ToManyKey: [NSManagedObjectID]] = [:]
    private var nextPrimaryKey: [ObjectIdentifier: Int64] = [:]
    /// The contents before the save in progress, restored if it rolls back.
    private var backup: Backup?

    private struct Backup {
        let rows: [NSManagedObjectID: RowSnapshot]
        let order: [NSManagedObjectID]
        let toMany: [ToManyKey: [NSManagedObjectID]]
        let metadata: [String: Any]
    }

    private struct ToManyKey: Hashable {
        let owner: NSManagedObjectID
        let relationship: String
    }

    override var type: String {
        NSInMemoryStoreType
    }

    /// An in-memory store keeps nothing to delete.
    override class func destroyStore(at url: URL) throws {}

    func load(model: NSManagedObjectModel) throws {
        storedMetadata = newStoreMetadata(for: model)
        identifier = storedMetadata[NSStoreUUIDKey] as? String
    }

    // MARK: Fetching

    func fetchRows(_ plan: FetchPlan) throws -> [RowSnapshot] {
        try plan.evaluate(on: order.lazy.compactMap { self.rows[$0] }, of: self)
    }

    func snapshot(for objectID: NSManagedObjectID) throws -> RowSnapshot? {
        rows[objectID]
    }

    func destinationIDs(of objectID: NSManagedObjectID, relationship: NSRelationshipDescription) throws -> [NSManagedObjectID] {
        (toMany[ToManyKey(owner: objectID, relationship: relationship.name)] ?? []).filter { rows[$0] != nil }
    }

    // MARK: Saving

    func obtainPermanentIDs(for objects: [NSManagedObject]) throws -> [NSManagedObjectID] {
        objects.map { objectID(for: $0.entity, primaryKey: allocatePrimaryKey(for: $0.entity)) }
    }

    func beginSave(_ changes: StoreSaveChanges) throws -> StoreSaveOutcome {
        if let conflict = versionConflict(updates: changes.updates + changes.lockChecks, deletes: changes.deletes) {
            return .conflict(conflict)
        }
        backup = Backup(rows: rows, order: order, toMany: toMany, metadata: storedMetadata)
        var result = StoreSaveResult()
        var permanent: [ObjectIdentity: NSManagedObjectID] = [:]
        for row in changes.inserts {
            let objectID = row.objectID.flatMap { $0.isTemporaryID ? nil : $0 }
                ?? self.objectID(for: row.entity, primaryKey: allocatePrimaryKey(for: row.entity))
            if let temporary = row.temporaryID { permanent[temporary.identity] = objectID }
            result.permanentIDs.append(objectID)
        }
        let resolve = { (objectID: NSManagedObjectID) in permanent[objectID.identity] ?? objectID }
        // The generation this save gets when it commits (see `RowChangeLog`).
        let generation = rowChanges.currentGeneration + 1
        for (row, objectID) in zip(changes.inserts, result.permanentIDs) {
            rows[objectID] = RowSnapshot.make(objectID: objectID, version: 1, values: resolved(row.values, resolve, in: objectID.entity), generation: generation)
            order.append(objectID)
        }
        for row in changes.updates {
            guard let current = rows[row.objectID] else { continue }
            var values = current.values
            for slot in row.changedSlots { values.setValue(atSlot: slot, from: row.values) }
            rows[row.objectID] = RowSnapshot.make(objectID: row.objectID, version: current.version + 1, values: resolved(values, resolve, in: row.objectID.entity), generation: generation)
        }
        for row in changes.deletes {
            rows.removeValue(forKey: row.objectID)
        }
        if !changes.deletes.isEmpty {
            let deleted = Set(changes.deletes.map(\.objectID))
            order.removeAll { deleted.contains($0) }
        }
        for change in changes.toManyChanges {
            apply(change, resolve: resolve)
        }
        if let metadata = changes.metadata { storedMetadata = metadata }
        return .written(result)
    }

    func finishSave(committing: Bool) throws {
        defer { backup = nil }
        if committing {
            metadataChanged = false
        } else if let backup {
            rows = backup.rows
            order = backup.order
            toMany = backup.toMany
            storedMetadata = backup.metadata
        }
    }

    /// The first row changed since it was read, or updated or checked row deleted since
    /// (deleting a row again is no conflict).
    private func versionConflict(updates: [RowChange], deletes: [RowChange]) -> VersionConflict? {
        let updatedElsewhere = updates.first { rows[$0.objectID]?.version != $0.version }
        let changedBeforeDelete = deletes.first { change in rows[change.objectID].map { $0.version != change.version } ?? false }
        return (updatedElsewhere ?? changedBeforeDelete).map { change in
            VersionConflict(objectID: change.objectID, readVersion: change.version, storedVersion: rows[change.objectID]?.version)
        }
    }

    private func apply(_ change: ToManyChange, resolve: (NSManagedObjectID) -> NSManagedObjectID) {
        let key = ToManyKey(owner: resolve(change.owner), relationship: change.relationship.name)
        if let ordered = change.orderedDestinations {
            toMany[key] = ordered.map(resolve)
            return
        }
        let removed = Set(change.removed.map(resolve))
        var destinations = (toMany[key] ?? []).filter { !removed.contains($0) }
        for added in change.added.map(resolve) where !destinations.contains(added) {
            destinations.append(added)
        }
        toMany[key] = destinations
    }

    private func resolved(_ values: SlotValues, _ resolve: (NSManagedObjectID) -> NSManagedObjectID, in entity: NSEntityDescription) -> SlotValues {
        var values = values
        for slot in values.indices where entity.layout.scalar(atSlot: slot) == nil {
            if let destination = values[slot] as? NSManagedObjectID { values[slot] = resolve(destination) }
        }
        return values
    }

    private func allocatePrimaryKey(for entity: NSEntityDescription) -> Int64 {
        let root = ObjectIdentifier(entity.rootEntity)
        let key = (nextPrimaryKey[root] ?? 0) + 1
        nextPrimaryKey[root] = key
        return key
    }
}
