// Prefetching (`relationshipKeyPathsForPrefetching`): the destinations of each relationship along
// each key path are loaded for all fetched objects at once, one query per relationship and store
// (and one for the destinations' rows), never one per object.
extension NSManagedObjectContext {
    func prefetch(_ keyPaths: [String], for objects: [NSManagedObject], entity: NSEntityDescription) throws {
        // What an earlier fetch prefetched may be stale now; this fetch reads the rows again.
        prefetched.removeAll()
        for keyPath in keyPaths {
            var sources = objects
            var current = entity
            for component in keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
                guard let relationship = current.relationshipsByName[component], let destination = relationship.destinationEntity else {
                    throw CoreDataError.unknownKey(keyPath, entity: entity.entityName)
                }
                sources = relationship.isToMany
                    ? try prefetchToMany(relationship, of: sources)
                    : try prefetchToOne(relationship, of: sources)
                current = destination
            }
        }
    }

    /// Loads the rows of the destinations of a to-one relationship and returns the destinations.
    private func prefetchToOne(_ relationship: NSRelationshipDescription, of sources: [NSManagedObject]) throws -> [NSManagedObject] {
        var destinations: [NSManagedObjectID] = []
        var seen = Set<ObjectIdentity>()
        for source in sources {
            guard let slot = source.layout.slotIndex(forKey: relationship.name) else { continue }
            let destination = source.isFault
                ? (source.snapshot ?? prefetched.row(for: source.objectID.identity))?.values[slot] as? NSManagedObjectID
                : (source.values[slot] as? NSManagedObject)?.objectID
            if let destination, seen.insert(destination.identity).inserted { destinations.append(destination) }
        }
        try loadRows(of: destinations)
        return destinations.map(object(with:))
    }

    /// Loads the destinations of a to-many relationship for every source, keeps them for when
    /// the relationship is first read, loads their rows and returns them.
    private func prefetchToMany(_ relationship: NSRelationshipDescription, of sources: [NSManagedObject]) throws -> [NSManagedObject] {
        let coordinator = try requireCoordinator()
        let owners = sources.filter { !$0.objectID.isTemporaryID && $0.hasFault(forRelationshipNamed: relationship.name) }
        var destinations: [NSManagedObjectID] = []
        var seen = Set<ObjectIdentity>()
        for (store, storeOwners) in Self.grouped(owners.map(\.objectID)) {
            let found = try coordinator.withStores { _ in try store.engine().destinationIDs(ofOwners: storeOwners, relationship: relationship) }
            for owner in storeOwners {
                let ownerDestinations = found[owner] ?? []
                guard let slot = owner.entity.layout.slotIndex(forKey: relationship.name) else { continue }
                prefetched.store(ownerDestinations, of: owner.identity, slot: slot)
                for destination in ownerDestinations where seen.insert(destination.identity).inserted {
                    destinations.append(destination)
                }
            }
        }
        try loadRows(of: destinations)
        return destinations.map(object(with:))
    }

    /// Reads the rows of the objects that are not registered, or are faults without a row, in
    /// one query per store: registered faults take theirs now, the others find theirs in the
    /// prefetch cache when they are made and fired.
    private func loadRows(of objectIDs: [NSManagedObjectID]) throws {
        let coordinator = try requireCoordinator()
        let missing = objectIDs.filter { objectID in
            guard !objectID.isTemporaryID, prefetched.row(for: objectID.identity) == nil else { return false }
            guard let registered = registry.object(for: objectID.identity) else { return true }
            return registered.isFault && registered.snapshot == nil
        }
        for (store, storeIDs) in Self.grouped(missing) {
            let rows = try coordinator.withStores { _ in try store.engine().snapshots(for: storeIDs) }
            for row in rows {
                if let registered = registry.object(for: row.objectID.identity) {
                    registered.snapshot = row
                    registered.faultBatch = nil
                } else {
                    prefetched.store(row)
                }
            }
        }
    }

    /// Object IDs by store, in order.
    static func grouped(_ objectIDs: [NSManagedObjectID]) -> [(NSPersistentStore, [NSManagedObjectID])] {
        var groups: [(NSPersistentStore, [NSManagedObjectID])] = []
        for objectID in objectIDs {
            guard let store = objectID.persistentStore else { continue }
            if let index = groups.firstIndex(where: { $0.0 === store }) {
                groups[index].1.append(objectID)
            } else {
                groups.append((store, [objectID]))
            }
        }
        return groups
    }
}
