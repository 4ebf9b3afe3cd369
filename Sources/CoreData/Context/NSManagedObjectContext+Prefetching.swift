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
            for (index, relationship) in resolved.relationships.enumerated() {
                let isLast = index == resolved.relationships.count - 1
                sources = relationship.isToMany
                    ? try prefetchToMany(relationship, of: sources, returningDestinations: !isLast)
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

    /// Loads the destinations of a to-many relationship for every source with their rows, in one
    /// query, and keeps each source's for when its relationship is first read. Returns the
    /// destinations when asked (for the next step of a key path), each once.
    @discardableResult
    func prefetchToMany(_ relationship: NSRelationshipDescription, of sources: [NSManagedObject],
                        returningDestinations: Bool = false) throws -> [NSManagedObject] {
        let owners = sources.filter { (parent != nil || !$0.objectID.isTemporaryID) && $0.hasFault(forRelationshipNamed: relationship.name) }.map(\.objectID)
        let rows = try destinationRows(ofOwners: owners, relationship: relationship)
        var destinations: [NSManagedObject] = []
        // A destination has one owner when the inverse is to-one; otherwise it may have several.
        let mayShareDestinations = relationship.inverseRelationship?.isToMany != false
        var seen = Set<ObjectIdentifier>()
        for owner in owners {
            guard let slot = owner.entity.layout.slotIndex(forKey: relationship.name) else { continue }
            // An owner without rows has no destinations: that is kept too, so reading it is free.
            let ownerDestinations = register(rows[owner] ?? [], realize: false)
            prefetched.store(ownerDestinations, of: owner.identity, slot: slot)
            guard returningDestinations else { continue }
            destinations += mayShareDestinations ? ownerDestinations.filter { seen.insert(ObjectIdentifier($0)).inserted } : ownerDestinations
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
