/// The destinations of a loaded to-many relationship: their order, fast membership tests, and the
/// state last read from or written to the store, from which a save computes join-table changes.
///
/// Removals only drop membership at once; the ordered storage is compacted on the next read, so
/// removing many destinations one by one (deleting every child of a parent) stays linear.
final class RelatedObjects {
    private var storage: [NSManagedObject]
    private var members: Set<ObjectIdentifier>
    /// Whether `storage` still holds objects that were removed.
    private var needsCompaction = false
    /// The destinations as they are in the parent store.
    private(set) var committed: [NSManagedObject]

    init(_ objects: [NSManagedObject] = [], committed: Bool) {
        var unique: [NSManagedObject] = []
        var members = Set<ObjectIdentifier>()
        for object in objects where members.insert(ObjectIdentifier(object)).inserted {
            unique.append(object)
        }
        self.storage = unique
        self.members = members
        self.committed = committed ? unique : []
    }

    /// The destinations, in order.
    var objects: [NSManagedObject] {
        if needsCompaction {
            storage.removeAll { !members.contains(ObjectIdentifier($0)) }
            needsCompaction = false
        }
        return storage
    }

    var count: Int { members.count }

    func contains(_ object: NSManagedObject) -> Bool {
        members.contains(ObjectIdentifier(object))
    }

    /// Adds an object at the end, or at `index`; returns false when it was already there.
    @discardableResult
    func insert(_ object: NSManagedObject, at index: Int? = nil) -> Bool {
        guard members.insert(ObjectIdentifier(object)).inserted else { return false }
        if let index, index >= 0, index < count {
            var current = objects
            current.insert(object, at: index)
            storage = current
        } else {
            storage.append(object)
        }
        return true
    }

    /// Removes an object; returns false when it was not there.
    @discardableResult
    func remove(_ object: NSManagedObject) -> Bool {
        guard members.remove(ObjectIdentifier(object)) != nil else { return false }
        needsCompaction = true
        return true
    }

    /// Replaces the contents, keeping the committed state.
    func replace(with newObjects: [NSManagedObject]) {
        storage = []
        members = []
        needsCompaction = false
        newObjects.forEach { insert($0) }
    }

    /// Moves an existing member to a new position (ordered relationships).
    func move(_ object: NSManagedObject, to index: Int) {
        guard contains(object) else { return }
        var current = objects
        current.removeAll { $0 === object }
        current.insert(object, at: min(max(index, 0), current.count))
        storage = current
    }

    /// Whether the destinations differ from the committed state: in membership, and for an
    /// ordered relationship in order too.
    func hasChanges(ordered: Bool) -> Bool {
        guard count == committed.count else { return true }
        if ordered {
            return zip(objects, committed).contains { $0 !== $1 }
        }
        return committed.contains { !contains($0) }
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

    /// Puts the changes `local` made to its committed state on top of these destinations, which
    /// another context's save changed: its removals and additions and, for an ordered
    /// relationship, its order, with the destinations that arrived meanwhile at the end.
    func reapplyChanges(of local: RelatedObjects, ordered: Bool) {
        let removed = local.removed
        guard ordered else {
            removed.forEach { remove($0) }
            local.added.forEach { insert($0) }
            return
        }
        let added = Set(local.added.map(ObjectIdentifier.init))
        let kept = local.objects.filter { contains($0) || added.contains(ObjectIdentifier($0)) }
        let keptOrRemoved = Set((kept + removed).map(ObjectIdentifier.init))
        replace(with: kept + objects.filter { !keptOrRemoved.contains(ObjectIdentifier($0)) })
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
