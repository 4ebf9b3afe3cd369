/// An atomic store as the coordinator uses every store: its rows are read from its cache nodes.
extension NSAtomicStore: PersistentStoreEngine, ReferenceObjectNaming {
    /// Gives the store Apple's default metadata when its initializer set none (its type, a new
    /// UUID and the model's version hashes), then loads its nodes.
    package func load(model: NSManagedObjectModel) throws {
        if storedMetadata[NSStoreUUIDKey] == nil {
            storedMetadata.merge(newStoreMetadata(for: model)) { current, _ in current }
        }
        if storedMetadata[NSStoreTypeKey] == nil {
            storedMetadata[NSStoreTypeKey] = type
        }
        identifier = storedMetadata[NSStoreUUIDKey] as? String
        metadataChanged = false
        try load()
    }

    // MARK: Fetching

    package func fetchRows(_ plan: FetchPlan) throws -> [RowSnapshot] {
        try plan.evaluate(on: cacheNodes().lazy.map(row(of:)), of: self)
    }

    package func snapshot(for objectID: NSManagedObjectID) throws -> RowSnapshot? {
        cacheNode(for: objectID).map(row(of:))
    }

    package func destinationIDs(of objectID: NSManagedObjectID, relationship: NSRelationshipDescription) throws -> [NSManagedObjectID] {
        guard let node = cacheNode(for: objectID) else { return [] }
        return Self.nodes(in: node.value(forKey: relationship.name)).map(\.objectID)
    }

    // MARK: Saving

    /// IDs made from the reference objects ``newReferenceObject(for:)`` gives.
    package func obtainPermanentIDs(for objects: [NSManagedObject]) throws -> [NSManagedObjectID] {
        objects.map { objectID(for: $0.entity, reference: newReferenceObject(for: $0)) }
    }

    /// Brings the cache nodes up to date with the save (a new node per inserted object, then the
    /// values of every inserted and updated object; the nodes of deleted objects removed), and
    /// writes them with ``save()``. When writing fails, the nodes are put back as they were.
    package func beginSave(_ changes: StoreSaveChanges) throws -> StoreSaveOutcome {
        if let conflict = versionConflict(in: changes) {
            return .conflict(conflict)
        }
        let objects = changes.objects
        try assignPermanentIDs(to: objects.inserted, in: try requestingContext())
        let before = cacheState(keepingValuesOf: (objects.updated + objects.deleted).compactMap { cacheNode(for: $0.objectID) })
        addCacheNodes(Set(objects.inserted.map(newCacheNode(for:))))
        for object in objects.inserted + objects.updated {
            guard let node = cacheNode(for: object.objectID) else { continue }
            updateCacheNode(node, from: object)
        }
        for row in changes.updates {
            cacheNode(for: row.objectID)?.version += 1
        }
        let removed = Set(objects.deleted.compactMap { cacheNode(for: $0.objectID) })
        willRemoveCacheNodes(removed)
        removeCacheNodes(removed)
        do {
            try save()
        } catch {
            restore(before)
            throw error
        }
        metadataChanged = false
        return .written(StoreSaveResult(permanentIDs: objects.inserted.map(\.objectID)))
    }

    package func finishSave(committing: Bool) throws {}

    /// The first node changed since the context read it (or gone), or deleted object changed
    /// since (deleting an object again is no conflict): optimistic locking, as SQLite's `Z_OPT`.
    private func versionConflict(in changes: StoreSaveChanges) -> VersionConflict? {
        let changed = (changes.updates + changes.lockChecks).first { cacheNode(for: $0.objectID)?.version != $0.version }
        let changedBeforeDelete = changes.deletes.first { change in cacheNode(for: change.objectID).map { $0.version != change.version } ?? false }
        return (changed ?? changedBeforeDelete).map { change in
            VersionConflict(objectID: change.objectID, readVersion: change.version, storedVersion: cacheNode(for: change.objectID)?.version)
        }
    }

    package var writesWithoutTransaction: Bool { true }

    // MARK: Rows of cache nodes

    /// A node's row: attributes as they are, a to-one relationship's node as its ID. To-many
    /// relationships are read from the node when asked for. The node keeps it for the next
    /// fetches.
    private func row(of node: NSAtomicStoreCacheNode) -> RowSnapshot {
        if let row = node.row { return row }
        let row = newRow(of: node)
        node.row = row
        return row
    }

    private func newRow(of node: NSAtomicStoreCacheNode) -> RowSnapshot {
        let layout = node.objectID.entity.layout
        let row = RowSnapshot.make(plan: layout.storagePlan, objectID: node.objectID.value, version: node.version, generation: rowChanges.currentGeneration)
        for slot in layout.slots {
            switch slot.kind {
            case .attribute(let attribute):
                let value = node.value(forKey: attribute.name)
                row.setValue(value is NSNull ? nil : value, atSlot: slot.index)
            case .toOne(let relationship):
                row.setValue((node.value(forKey: relationship.name) as? NSAtomicStoreCacheNode)?.objectID, atSlot: slot.index)
            case .toMany:
                continue
            }
        }
        return row
    }

    /// The cache nodes a to-many value holds: a set, an ordered set or an array of nodes.
    private static func nodes(in value: Any?) -> [NSAtomicStoreCacheNode] {
        let elements: [Any]
        switch value {
        case let set as NSSet: elements = set.allObjects
        case let ordered as NSOrderedSet: elements = ordered.array
        case let set as Set<NSAtomicStoreCacheNode>: elements = Array(set)
        case let array as [Any]: elements = array
        default: elements = []
        }
        return elements.compactMap { $0 as? NSAtomicStoreCacheNode }
    }
}
