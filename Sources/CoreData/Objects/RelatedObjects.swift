/// The destinations of a loaded to-many relationship: their order, fast membership tests, and the
/// state last read from or written to the store, from which a save computes join-table changes.
///
/// Removals only drop membership at once; the ordered storage is compacted on the next read, so
/// removing many destinations one by one (deleting every child of a parent) stays linear.
///
/// The membership table is made on the first membership test or change: destinations read from a
/// store are distinct already, and a relationship that is only read (the common case, thousands
/// of them after a prefetching fetch) never needs one.
///
/// Every change is reported to the mirrors that keep a copy of the destinations (see
/// `RelatedObjectsMirror`).
final class RelatedObjects {
    /// A change to the destinations, as mirrors apply it to their copy.
    enum Change {
        /// `object` joined at `index` of the ordered destinations.
        case inserted(NSManagedObject, at: Int)
        case removed(NSManagedObject)
        /// The destinations were replaced or reordered: copy them again.
        case replaced
    }

    private struct WeakMirror {
        weak var mirror: (any RelatedObjectsMirror)?
    }

    private var storage: [NSManagedObject]
    /// The identities of the members; nil until first needed, while `storage` holds exactly the
    /// members (nothing was removed yet).
    private var memberTable: Set<ObjectIdentifier>?
    /// The objects removed from the members that `storage` may still hold.
    private var removedSinceCompaction: Set<ObjectIdentifier> = []
    /// The destinations as they are in the parent store.
    private(set) var committed: [NSManagedObject]
    private var mirrors: [WeakMirror] = []
    /// The immutable copies last handed out by `set` and `orderedSet`, until the next change.
    private var setCopy: NSSet?
    private var orderedSetCopy: NSOrderedSet?

    init(_ objects: [NSManagedObject] = [], committed: Bool) {
        var unique: [NSManagedObject] = []
        var members = Set<ObjectIdentifier>()
        for object in objects where members.insert(ObjectIdentifier(object)).inserted {
            unique.append(object)
        }
        self.storage = unique
        self.memberTable = members
        self.committed = committed ? unique : []
    }

    /// Destinations as read from the store, which are their committed state: distinct, since each
    /// is a different row, so no membership table is made for them yet.
    init(loaded objects: [NSManagedObject]) {
        storage = objects
        committed = objects
    }

    /// The destinations, in order.
    var objects: [NSManagedObject] {
        compact()
        return storage
    }

    /// Drops the removed objects from `storage`.
    private func compact() {
        guard !removedSinceCompaction.isEmpty else { return }
        withMembers { members in storage.removeAll { !members.contains(ObjectIdentifier($0)) } }
        removedSinceCompaction = []
    }

    var count: Int { memberTable?.count ?? storage.count }

    func contains(_ object: NSManagedObject) -> Bool {
        withMembers { $0.contains(ObjectIdentifier(object)) }
    }

    /// Runs `body` on the membership table, making it first when needed. Should the store have
    /// handed over the same destination twice, the copy leaves `storage` here.
    private func withMembers<Result>(_ body: (inout Set<ObjectIdentifier>) -> Result) -> Result {
        if memberTable == nil {
            var members = Set<ObjectIdentifier>(minimumCapacity: storage.count)
            storage.removeAll { !members.insert(ObjectIdentifier($0)).inserted }
            memberTable = members
        }
        return body(&memberTable!)
    }

    /// Adds an object at the end, or at `index`; returns false when it was already there.
    @discardableResult
    func insert(_ object: NSManagedObject, at index: Int? = nil) -> Bool {
        guard let position = insertMember(object, at: index) else { return false }
        notifyMirrors(of: .inserted(object, at: position))
        return true
    }

    /// Adds an object without telling the mirrors; returns its position, or nil when it was
    /// already there.
    private func insertMember(_ object: NSManagedObject, at index: Int?) -> Int? {
        let identity = ObjectIdentifier(object)
        guard !contains(object) else { return nil }
        // A removed object that comes back must leave its old place first.
        if removedSinceCompaction.contains(identity) { compact() }
        withMembers { _ = $0.insert(identity) }
        guard let index, index >= 0, index < count else {
            storage.append(object)
            return count - 1
        }
        var current = objects
        current.insert(object, at: index)
        storage = current
        return index
    }

    /// Removes an object; returns false when it was not there.
    @discardableResult
    func remove(_ object: NSManagedObject) -> Bool {
        guard let identity = withMembers({ $0.remove(ObjectIdentifier(object)) }) else { return false }
        removedSinceCompaction.insert(identity)
        notifyMirrors(of: .removed(object))
        return true
    }

    /// Replaces the contents, keeping the committed state.
    func replace(with newObjects: [NSManagedObject]) {
        storage = []
        memberTable = []
        removedSinceCompaction = []
        newObjects.forEach { _ = insertMember($0, at: nil) }
        notifyMirrors(of: .replaced)
    }

    /// Moves an existing member to a new position (ordered relationships).
    func move(_ object: NSManagedObject, to index: Int) {
        guard contains(object) else { return }
        var current = objects
        current.removeAll { $0 === object }
        let position = min(max(index, 0), current.count)
        current.insert(object, at: position)
        storage = current
        notifyMirrors(of: .removed(object))
        notifyMirrors(of: .inserted(object, at: position))
    }

    // MARK: Mirrors

    /// Starts reporting changes to `mirror`, which holds it weakly.
    func addMirror(_ mirror: any RelatedObjectsMirror) {
        mirrors.removeAll { $0.mirror == nil }
        mirrors.append(WeakMirror(mirror: mirror))
    }

    func removeMirror(_ mirror: any RelatedObjectsMirror) {
        mirrors.removeAll { $0.mirror == nil || $0.mirror === mirror }
    }

    /// Drops the copies handed out before the change, and tells the mirrors.
    private func notifyMirrors(of change: Change) {
        setCopy = nil
        orderedSetCopy = nil
        guard !mirrors.isEmpty else { return }
        for box in mirrors {
            box.mirror?.relatedObjects(self, didChange: change)
        }
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
        committed.filter { !contains($0) }
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

    /// The destinations as an immutable set, which later changes leave as it is; the same one
    /// until they change, so reading a relationship again copies nothing.
    var set: NSSet {
        if let setCopy { return setCopy }
        // A buffer of objects is one of `AnyObject`s: no array of `Any` is made to build the set.
        let set = objects.withUnsafeBufferPointer { objects in
            objects.withMemoryRebound(to: AnyObject.self) { NSSet(objects: $0.baseAddress, count: $0.count) }
        }
        setCopy = set
        return set
    }

    /// The destinations as an immutable ordered set, kept like `set`.
    var orderedSet: NSOrderedSet {
        if let orderedSetCopy { return orderedSetCopy }
        let orderedSet = NSOrderedSet(array: objects)
        orderedSetCopy = orderedSet
        return orderedSet
    }
}

/// Something that keeps its own copy of a to-many relationship's destinations in step with them:
/// the proxy `mutableOrderedSetValue(forKey:)` returns, since Foundation's `NSOrderedSet` answers
/// many of its members from storage a subclass cannot replace.
protocol RelatedObjectsMirror: AnyObject {
    func relatedObjects(_ related: RelatedObjects, didChange change: RelatedObjects.Change)
}
