/// The objects of other entities whose changes move a fetched results controller's objects: those
/// a sort or section key path reaches through relationships (`director.name`). A change to such
/// an object counts as a change to the fetched objects that lead to it, found by walking the
/// relationships' inverses back.
struct FetchedResultsDependencies {
    /// One key path's relationships from the fetched entity, and the entities each one reaches.
    private struct Chain {
        let relationships: [NSRelationshipDescription]
        /// For each step, the entities (and sub-entities) the relationship leads to.
        let reached: [Set<ObjectIdentifier>]
    }

    private let chains: [Chain]
    /// The entities (and sub-entities) the key paths reach through relationships.
    let reachedEntities: [NSEntityDescription]

    init(keyPaths: [String], entity: NSEntityDescription?) {
        var reachedEntities: [NSEntityDescription] = []
        chains = keyPaths.compactMap { keyPath in
            guard let resolved = try? entity?.resolve(keyPath: keyPath) else { return nil }
            // The relationships that lead to the objects whose values the key path reads: a path
            // that ends at a relationship reads the relationship itself, not its destinations.
            let endsAtRelationship = resolved.remainder.isEmpty && resolved.steps.last?.relationship != nil
            let walked = endsAtRelationship ? resolved.steps.dropLast() : resolved.steps[...]
            let relationships = walked.compactMap(\.relationship).filter { $0.destinationEntity != nil }
            guard !relationships.isEmpty else { return nil }
            let reached = relationships.compactMap(\.destinationEntity).map(\.selfAndDescendants)
            reachedEntities += reached.joined()
            return Chain(relationships: relationships, reached: reached.map { Set($0.map(ObjectIdentifier.init)) })
        }
        self.reachedEntities = reachedEntities
    }

    var isEmpty: Bool { chains.isEmpty }

    /// The objects whose key paths lead to `object`, found through inverse relationships
    /// (relationships without an inverse cannot be walked back, and are not followed).
    func dependents(of object: NSManagedObject) -> [NSManagedObject] {
        var result: [NSManagedObject] = []
        for chain in chains {
            for (depth, entities) in chain.reached.enumerated() where entities.contains(ObjectIdentifier(object.entity)) {
                var current = [object]
                for relationship in chain.relationships[...depth].reversed() {
                    guard let inverse = relationship.inverseRelationship else {
                        current = []
                        break
                    }
                    current = current.flatMap { Self.destinations(of: $0, through: inverse) }
                }
                result += current
            }
        }
        return result
    }

    private static func destinations(of object: NSManagedObject, through relationship: NSRelationshipDescription) -> [NSManagedObject] {
        guard object.managedObjectContext != nil, let slot = object.layout.slotIndex(forKey: relationship.name) else { return [] }
        return object.destinations(atSlot: slot)
    }
}
