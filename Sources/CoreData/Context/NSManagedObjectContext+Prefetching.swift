// Prefetching (`relationshipKeyPathsForPrefetching`): the destinations of each relationship along
// each key path are loaded for all fetched objects at once, one query per relationship and store
// (and one for the destinations' rows), never one per object.
extension NSManagedObjectContext {
    func prefetch(_ keyPaths: [String], for objects: [NSManagedObject], entity: NSEntityDescription) throws {
        // What an earlier fetch prefetched may be stale now; this fetch reads the rows again.
        prefetched.removeAll()
        for keyPath in keyPaths {
            let resolved = try entity.resolve(keyPath: keyPath)
            guard resolved.remainder.isEmpty, resolved.steps.allSatisfy({ $0.relationship?.destinationEntity != nil }) else {
                throw CoreDataError.unknownKey(keyPath, entity: entity.entityName)
            }
            var sources = objects
            for relationship in resolved.relationships {
                sources = relationship.isToMany
                    ? try prefetchToMany(relationship, of: sources)
                    : try prefetchToOne(relationship, of: sources)
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
                ? source.snapshot?.values[slot] as? NSManagedObjectID
                : source.toOneDestinationID(atSlot: slot)
            if let destination, seen.insert(destination.identity).inserted { destinations.append(destination) }
        }
        try loadRows(of: destinations)
        return destinations.map(object(with:))
    }

    /// Loads the destinations of a to-many relationship for every source with their rows, keeps
    /// them for when the relationship is first read, and returns them.
    func prefetchToMany(_ relationship: NSRelationshipDescription, of sources: [NSManagedObject]) throws -> [NSManagedObject] {
        let owners = sources.filter { (parent != nil || !$0.objectID.isTemporaryID) && $0.hasFault(forRelationshipNamed: relationship.name) }.map(\.objectID)
        let rows = try destinationRows(ofOwners: owners, relationship: relationship)
        // One registration for every destination: far cheaper than one per owner.
        let objects = register(owners.flatMap { rows[$0] ?? [] }, realize: false)
        var destinations: [NSManagedObject] = []
        var seen = Set<ObjectIdentifier>()
        var start = 0
        for owner in owners {
            let end = start + (rows[owner]?.count ?? 0)
            let ownerDestinations = Array(objects[start..<end])
            start = end
            guard let slot = owner.entity.layout.slotIndex(forKey: relationship.name) else { continue }
            prefetched.store(ownerDestinations, of: owner.identity, slot: slot)
            destinations += ownerDestinations.filter { seen.insert(ObjectIdentifier($0)).inserted }
        }
        return destinations
    }

    /// Reads the rows of the objects that are not registered, or are faults without a row, in
    /// one query per store, and registers them as faults holding their rows, kept alive by the
    /// prefetch cache.
    private func loadRows(of objectIDs: [NSManagedObjectID]) throws {
        let rows = try currentRows(of: objectIDs.filter(needsRow))
        prefetched.retain(register(Array(rows.values), realize: false))
    }

}
