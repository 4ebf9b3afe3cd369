import Synchronization

// The entities of a context's model by name, which inserting by entity name looks up per object.
extension NSManagedObjectContext {
    /// The entities of the model of the context's coordinator, by name.
    ///
    /// Read from the coordinator once, and again after any context's coordinator or parent
    /// changed (see `ContextLinks`): walking to the model retains the coordinator and the model
    /// on every insert.
    var entitiesByName: [String: NSEntityDescription] {
        let generation = ContextLinks.generation
        if let cached = entityNames.withLock({ $0?.generation == generation ? $0?.entities : nil }) { return cached }
        let entities = managedObjectModel?.entitiesByName ?? [:]
        entityNames.withLock { $0 = EntityNames(generation: generation, entities: entities) }
        return entities
    }

    /// `entitiesByName` as read at a generation of `ContextLinks`.
    struct EntityNames {
        let generation: Int
        let entities: [String: NSEntityDescription]
    }
}

/// Counts the changes of every context's coordinator and parent, so that what a context derives
/// from its coordinator is read again after one. A child context's coordinator is its parent's,
/// so a change to any context may change any other's.
enum ContextLinks {
    private static let changes = Atomic<Int>(0)

    /// The number of changes so far.
    static var generation: Int {
        changes.load(ordering: .acquiring)
    }

    /// Records that a context's coordinator or parent changed.
    static func changed() {
        changes.wrappingAdd(1, ordering: .releasing)
    }
}
