/// The destinations of a loaded to-many relationship: their order, fast membership tests, and the
/// state last read from or written to the store, from which a save computes join-table changes.
final class RelatedObjects {
    private(set) var objects: [NSManagedObject]
    private var members: Set<ObjectIdentifier>
    /// The destinations as they are in the parent store.
    private(set) var committed: [NSManagedObject]

    init(_ objects: [NSManagedObject] = [], committed: Bool) {
        var unique: [NSManagedObject] = []
        var members = Set<ObjectIdentifier>()
        for object in objects where members.insert(ObjectIdentifier(object)).inserted {
            unique.append(object)
        }
        self.objects = unique
        self.members = members
        self.committed = committed ? unique : []
    }

    var count: Int { objects.count }

    func contains(_ object: NSManagedObject) -> Bool {
        members.contains(ObjectIdentifier(object))
    }

    /// Adds an object at the end, or at `index`; returns false when it was already there.
    @discardableResult
    func insert(_ object: NSManagedObject, at index: Int? = nil) -> Bool {
        guard members.insert(ObjectIdentifier(object)).inserted else { return false }
        if let index, index >= 0, index <= objects.count {
            objects.insert(object, at: index)
        } else {
            objects.append(object)
        }
        return true
    }

    /// Removes an object; returns false when it was not there.
    @discardableResult
    func remove(_ object: NSManagedObject) -> Bool {
        guard members.remove(ObjectIdentifier(object)) != nil else { return false }
        objects.removeAll { $0 === object }
        return true
    }

    /// Replaces the contents, keeping the committed state.
    func replace(with newObjects: [NSManagedObject]) {
        objects = []
        members = []
        newObjects.forEach { insert($0) }
    }

    /// Moves an existing member to a new position (ordered relationships).
    func move(_ object: NSManagedObject, to index: Int) {
        guard contains(object) else { return }
        objects.removeAll { $0 === object }
        objects.insert(object, at: min(max(index, 0), objects.count))
    }

    /// Whether the contents or their order differ from the committed state.
    var hasChanges: Bool {
        objects.count != committed.count || zip(objects, committed).contains { $0 !== $1 }
    }

    /// Members added since the committed state.
    var added: [NSManagedObject] {
        let old = Set(committed.map(ObjectIdentifier.init))
        return objects.filter { !old.contains(ObjectIdentifier($0)) }
    }

    /// Members removed since the committed state.
    var removed: [NSManagedObject] {
        committed.filter { !members.contains(ObjectIdentifier($0)) }
    }

    /// Takes over the committed state of the storage this one replaces.
    func replaceCommitted(with committed: [NSManagedObject]) {
        self.committed = committed
    }

    /// Records the current contents as the committed state (after a save).
    func commit() {
        committed = objects
    }

    /// Restores the committed state (rollback).
    func revert() {
        replace(with: committed)
    }

    var set: NSSet { NSSet(array: objects) }
    var orderedSet: NSOrderedSet { NSOrderedSet(array: objects) }
}
