/// What a fetch prefetched for its context (`relationshipKeyPathsForPrefetching`): the destinations
/// of to-many relationships, handed out when a relationship is first read, and the prefetched
/// objects themselves, registered with their rows and kept alive until the next fetch that
/// prefetches (or a reset), so that neither goes back to the store.
struct PrefetchCache {
    /// A to-many relationship of one object.
    struct Relationship: Hashable {
        let owner: ObjectIdentity
        let slot: Int
    }

    private var destinations: [Relationship: [NSManagedObject]] = [:]
    private var objects: [NSManagedObject] = []

    var isEmpty: Bool {
        destinations.isEmpty
    }

    mutating func store(_ destinationObjects: [NSManagedObject], of owner: ObjectIdentity, slot: Int) {
        destinations[Relationship(owner: owner, slot: slot)] = destinationObjects
    }

    /// Keeps prefetched objects alive (the context holds unchanged objects weakly); the stored
    /// destinations of to-many relationships are kept alive by the cache already.
    mutating func retain(_ prefetched: [NSManagedObject]) {
        objects += prefetched
    }

    mutating func takeDestinations(of owner: ObjectIdentity, slot: Int) -> [NSManagedObject]? {
        destinations.removeValue(forKey: Relationship(owner: owner, slot: slot))
    }

    mutating func removeAll() {
        self = PrefetchCache()
    }
}
