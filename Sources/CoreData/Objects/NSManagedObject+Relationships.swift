// Relationship storage and inverse upkeep. Changing one side of a relationship updates the other
// side at once, as Apple's Core Data does for modeled relationships with an inverse.
extension NSManagedObject {
    /// The loaded destinations of a to-many slot, loading them from the store on first access.
    func relatedObjects(atSlot slot: Int) -> RelatedObjects {
        fireFault(triggeredBy: slot)
        if let related = values[slot] as? RelatedObjects { return related }
        let related = RelatedObjects(loaded: objectContext?.loadDestinations(of: self, slot: slot) ?? [])
        values[slot] = related
        return related
    }

    /// Whether a to-many slot has not been loaded yet.
    func isRelationshipFault(atSlot slot: Int) -> Bool {
        isFault || !(values[slot] is RelatedObjects)
    }

    /// The destination of a to-one slot. A row leaves the destination's object ID in the slot;
    /// the first read turns it into the registered object (never with I/O).
    @inline(__always)
    func toOneDestination(atSlot slot: Int) -> NSManagedObject? {
        switch values[slot] {
        case let destination as NSManagedObject:
            return destination
        case let objectID as NSManagedObjectID:
            guard let destination = objectContext?.object(with: objectID) else { return nil }
            values[slot] = destination
            return destination
        default:
            return nil
        }
    }

    /// The object ID of a to-one slot's destination, without resolving it.
    func toOneDestinationID(atSlot slot: Int) -> NSManagedObjectID? {
        (values[slot] as? NSManagedObject)?.objectID ?? values[slot] as? NSManagedObjectID
    }

    /// Points a to-one relationship at `destination`, updating both old and new inverses.
    func setToOne(_ destination: NSManagedObject?, atSlot slot: Int) {
        guard case .toOne(let relationship) = layout.slots[slot].kind else { return }
        let previous = toOneDestination(atSlot: slot)
        guard previous !== destination else {
            markChanged(slot: slot)
            return
        }
        if let destination { checkSameContext(destination, relationship: relationship) }
        willChangeSlot(slot)
        values[slot] = destination
        markChanged(slot: slot)
        guard let inverse = relationship.inverseRelationship else { return }
        previous?.unlinkInverse(inverse, from: self)
        destination?.linkInverse(inverse, to: self)
    }

    /// Replaces the destinations of a to-many relationship, updating the inverses of every
    /// destination that leaves or joins.
    func replaceToMany(with destinations: [NSManagedObject], atSlot slot: Int) {
        willChangeSlot(slot)
        let related = relatedObjects(atSlot: slot)
        let isOrdered = layout.slots[slot].relationship?.isOrdered ?? false
        let keep = Set(destinations.map(ObjectIdentifier.init))
        for leaving in related.objects where !keep.contains(ObjectIdentifier(leaving)) {
            removeFromToMany(leaving, atSlot: slot)
        }
        for (index, joining) in destinations.enumerated() {
            if related.contains(joining) {
                if isOrdered { related.move(joining, to: index) }
            } else {
                addToToMany(joining, atSlot: slot, at: index)
            }
        }
        markChanged(slot: slot)
    }

    /// Adds a destination to a to-many relationship and links its inverse.
    func addToToMany(_ destination: NSManagedObject, atSlot slot: Int, at index: Int? = nil) {
        guard case .toMany(let relationship) = layout.slots[slot].kind else { return }
        checkSameContext(destination, relationship: relationship)
        willChangeSlot(slot)
        guard relatedObjects(atSlot: slot).insert(destination, at: index) else { return }
        markChanged(slot: slot)
        if let inverse = relationship.inverseRelationship {
            destination.linkInverse(inverse, to: self)
        }
    }

    /// Removes a destination from a to-many relationship and unlinks its inverse.
    func removeFromToMany(_ destination: NSManagedObject, atSlot slot: Int) {
        guard case .toMany(let relationship) = layout.slots[slot].kind else { return }
        willChangeSlot(slot)
        guard relatedObjects(atSlot: slot).remove(destination) else { return }
        markChanged(slot: slot)
        if let inverse = relationship.inverseRelationship {
            destination.unlinkInverse(inverse, from: self)
        }
    }

    /// Traps on a relationship between objects of two contexts, a programmer error Apple raises on.
    private func checkSameContext(_ destination: NSManagedObject, relationship: NSRelationshipDescription) {
        if let mine = managedObjectContext, let theirs = destination.managedObjectContext, mine !== theirs {
            preconditionFailure("Illegal attempt to establish a relationship '\(relationship.name)' between objects in different contexts.")
        }
    }

    /// Makes this object's side `inverse` point at `source`, which just started pointing here.
    ///
    /// For a to-one inverse that pointed at another object, that object loses this one, so a
    /// one-to-one or one-to-many stays consistent on every side.
    func linkInverse(_ inverse: NSRelationshipDescription, to source: NSManagedObject) {
        guard let slot = layout.slotIndex(forKey: inverse.name) else { return }
        fireFault()
        if inverse.isToMany {
            willChangeSlot(slot)
            if relatedObjects(atSlot: slot).insert(source) { markChanged(slot: slot) }
            return
        }
        let previous = toOneDestination(atSlot: slot)
        guard previous !== source else { return }
        willChangeSlot(slot)
        values[slot] = source
        markChanged(slot: slot)
        if let previous, let forward = inverse.inverseRelationship {
            previous.unlinkInverse(forward, from: self)
        }
    }

    /// Removes `source` from this object's side `inverse`, because `source` stopped pointing here
    /// (or, for the previous owner of a to-one, because `source` now points elsewhere).
    func unlinkInverse(_ inverse: NSRelationshipDescription, from source: NSManagedObject) {
        guard let slot = layout.slotIndex(forKey: inverse.name) else { return }
        fireFault()
        if inverse.isToMany {
            willChangeSlot(slot)
            if relatedObjects(atSlot: slot).remove(source) { markChanged(slot: slot) }
        } else if toOneDestination(atSlot: slot) === source {
            willChangeSlot(slot)
            values[slot] = nil
            markChanged(slot: slot)
        }
    }

    /// The current destinations of a relationship slot, without loading a to-many fault.
    func loadedDestinations(atSlot slot: Int) -> [NSManagedObject] {
        guard !isFault else { return [] }
        if let related = values[slot] as? RelatedObjects { return related.objects }
        return toOneDestination(atSlot: slot).map { [$0] } ?? []
    }

    /// The destinations of a relationship slot, loading a to-many fault when needed.
    func destinations(atSlot slot: Int) -> [NSManagedObject] {
        switch layout.slots[slot].kind {
        case .toOne: fireFault(); return toOneDestination(atSlot: slot).map { [$0] } ?? []
        case .toMany: return relatedObjects(atSlot: slot).objects
        case .attribute: return []
        }
    }

    /// Whether a relationship has not been loaded yet; reading it never fires a fault.
    public func hasFault(forRelationshipNamed key: String) -> Bool {
        guard let slot = layout.slotIndex(forKey: key), layout.slots[slot].relationship != nil else {
            preconditionFailure("\(entity.entityName) has no relationship named \"\(key)\".")
        }
        if isFault { return true }
        if case .toMany = layout.slots[slot].kind { return !(values[slot] is RelatedObjects) }
        return toOneDestination(atSlot: slot)?.isFault ?? false
    }

    /// The object IDs of a relationship's destinations, without firing the relationship fault.
    public func objectIDs(forRelationshipNamed key: String) -> [NSManagedObjectID] {
        guard let slot = layout.slotIndex(forKey: key), layout.slots[slot].relationship != nil else {
            preconditionFailure("\(entity.entityName) has no relationship named \"\(key)\".")
        }
        if let related = values.indices.contains(slot) ? values[slot] as? RelatedObjects : nil, !isFault {
            return related.objects.map(\.objectID)
        }
        if case .toOne = layout.slots[slot].kind {
            if isFault, let snapshot { return (snapshot.values[slot] as? NSManagedObjectID).map { [$0] } ?? [] }
            fireFault()
            return toOneDestinationID(atSlot: slot).map { [$0] } ?? []
        }
        return objectContext?.destinationIDs(of: self, slot: slot) ?? []
    }
}
