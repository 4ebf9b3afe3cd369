/// What a fetch prefetched for its context (`relationshipKeyPathsForPrefetching`): destinations of
/// to-many relationships and rows of objects, each handed out once, when the relationship is
/// first read or the fault first fires, so that neither goes back to the store.
struct PrefetchCache {
    /// A to-many relationship of one object.
    struct Relationship: Hashable {
        let owner: ObjectIdentity
        let slot: Int
    }

    private var destinations: [Relationship: [NSManagedObjectID]] = [:]
    private var rows: [ObjectIdentity: RowSnapshot] = [:]

    var isEmpty: Bool {
        destinations.isEmpty && rows.isEmpty
    }

    mutating func store(_ destinationIDs: [NSManagedObjectID], of owner: ObjectIdentity, slot: Int) {
        destinations[Relationship(owner: owner, slot: slot)] = destinationIDs
    }

    mutating func store(_ row: RowSnapshot) {
        rows[row.objectID.identity] = row
    }

    mutating func takeDestinations(of owner: ObjectIdentity, slot: Int) -> [NSManagedObjectID]? {
        destinations.removeValue(forKey: Relationship(owner: owner, slot: slot))
    }

    mutating func takeRow(for identity: ObjectIdentity) -> RowSnapshot? {
        rows.removeValue(forKey: identity)
    }

    /// The row waiting for the object with this identity, left in place.
    func row(for identity: ObjectIdentity) -> RowSnapshot? {
        rows[identity]
    }

    mutating func removeAll() {
        self = PrefetchCache()
    }
}
