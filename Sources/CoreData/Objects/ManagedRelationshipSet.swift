/// The mutable set `mutableSetValue(forKey:)` returns: adding and removing objects edits the
/// relationship, inverses included, and reading reflects the relationship's current destinations.
///
/// It works through NSMutableSet's primitive methods, through which Foundation's NSSet implements
/// its other members for a subclass, and replaces the two that read the base class's own storage
/// instead (`description`, `isEqual(_:)`). That storage, which this subclass cannot fill (the base
/// class traps when a subclass calls into it), is also what Linux Foundation bridges to Swift's
/// `Set` and reflects in `customMirror`: read the relationship through `value(forKey:)` to get a
/// `Set`, and use the proxy to edit it.
final class ManagedRelationshipSet: NSMutableSet {
    private let owner: NSManagedObject
    private let slot: Int

    init(owner: NSManagedObject, slot: Int) {
        self.owner = owner
        self.slot = slot
        super.init(capacity: 0)
    }

    required init(capacity numItems: Int) {
        preconditionFailure("ManagedRelationshipSet is created by NSManagedObject.mutableSetValue(forKey:).")
    }

    required init?(coder: NSCoder) {
        nil
    }

    override var count: Int {
        owner.relatedObjects(atSlot: slot).count
    }

    override func member(_ object: Any) -> Any? {
        guard let object = object as? NSManagedObject, owner.relatedObjects(atSlot: slot).contains(object) else { return nil }
        return object
    }

    override func objectEnumerator() -> NSEnumerator {
        NSArray(array: owner.relatedObjects(atSlot: slot).objects).objectEnumerator()
    }

    override func add(_ object: Any) {
        guard let object = object as? NSManagedObject else { return }
        owner.addToToMany(object, atSlot: slot)
    }

    override func remove(_ object: Any) {
        guard let object = object as? NSManagedObject else { return }
        owner.removeFromToMany(object, atSlot: slot)
    }

    override func removeAllObjects() {
        for object in owner.relatedObjects(atSlot: slot).objects {
            owner.removeFromToMany(object, atSlot: slot)
        }
    }

    // Foundation's NSSet implements these on the base class's storage.

    override func description(withLocale locale: Locale?) -> String {
        owner.relatedObjects(atSlot: slot).set.description(withLocale: locale)
    }

    override func isEqual(_ object: Any?) -> Bool {
        owner.relatedObjects(atSlot: slot).set.isEqual(object)
    }
}

/// The mutable ordered set `mutableOrderedSetValue(forKey:)` returns: edits change the ordered
/// relationship, inverses included, and reading reflects the relationship's current destinations.
///
/// Foundation's NSOrderedSet answers many members (`array`, `firstObject`, iteration,
/// `objectEnumerator()`…) from the base class's own storage, which a subclass cannot override. So
/// the proxy keeps that storage a mirror of the relationship: it copies the destinations when it
/// is made and whenever they were replaced (a fault fired, the owner was refreshed), and applies
/// every later change the relationship reports, whoever makes it (this proxy, an inverse, undo, a
/// merge). Its edits go to the relationship, never to the storage directly.
final class ManagedRelationshipOrderedSet: NSMutableOrderedSet, RelatedObjectsMirror {
    private let owner: NSManagedObject
    private let slot: Int
    /// The destinations the base class's storage mirrors.
    private var mirrored: RelatedObjects?
    /// Whether the storage is being changed, when the base class's own reads must not follow
    /// the relationship again.
    private var isUpdatingMirror = false

    init(owner: NSManagedObject, slot: Int) {
        self.owner = owner
        self.slot = slot
        super.init(capacity: 0)
        followRelationship()
    }

    required override init(capacity numItems: Int) {
        preconditionFailure("ManagedRelationshipOrderedSet is created by NSManagedObject.mutableOrderedSetValue(forKey:).")
    }

    required init(arrayLiteral elements: Any...) {
        preconditionFailure("ManagedRelationshipOrderedSet is created by NSManagedObject.mutableOrderedSetValue(forKey:).")
    }

    required init?(coder: NSCoder) {
        nil
    }

    /// The relationship's destinations, loading them if needed, with the storage mirroring them.
    @discardableResult
    private func followRelationship() -> RelatedObjects {
        let related = owner.relatedObjects(atSlot: slot)
        guard !isUpdatingMirror, related !== mirrored else { return related }
        mirrored?.removeMirror(self)
        mirrored = related
        related.addMirror(self)
        relatedObjects(related, didChange: .replaced)
        return related
    }

    func relatedObjects(_ related: RelatedObjects, didChange change: RelatedObjects.Change) {
        isUpdatingMirror = true
        defer { isUpdatingMirror = false }
        switch change {
        case .inserted(let object, let index):
            super.insert(object, at: index)
        case .removed(let object):
            super.remove(object)
        case .replaced:
            super.removeAllObjects()
            super.addObjects(from: related.objects)
        }
    }

    private var destinations: [NSManagedObject] {
        followRelationship().objects
    }

    // MARK: Primitive reads, which follow the relationship when its destinations were replaced

    override var count: Int {
        followRelationship()
        return super.count
    }

    override func object(at idx: Int) -> Any {
        followRelationship()
        return super.object(at: idx)
    }

    override func index(of object: Any) -> Int {
        followRelationship()
        return super.index(of: object)
    }

    override func contains(_ object: Any) -> Bool {
        followRelationship()
        return super.contains(object)
    }

    // MARK: Edits, which Foundation makes on its storage: they go to the relationship instead

    override func add(_ object: Any) {
        insert(object, at: count)
    }

    override func add(_ objects: UnsafePointer<AnyObject>?, count: Int) {
        UnsafeBufferPointer(start: objects, count: count).forEach(add)
    }

    override func addObjects(from array: [Any]) {
        array.forEach(add)
    }

    override func insert(_ object: Any, at idx: Int) {
        guard let object = object as? NSManagedObject, !contains(object) else { return }
        owner.addToToMany(object, atSlot: slot, at: idx)
    }

    override func remove(_ object: Any) {
        guard let object = object as? NSManagedObject else { return }
        owner.removeFromToMany(object, atSlot: slot)
    }

    override func removeObject(at idx: Int) {
        let current = destinations
        guard current.indices.contains(idx) else { return }
        owner.removeFromToMany(current[idx], atSlot: slot)
    }

    override func removeAllObjects() {
        destinations.forEach { owner.removeFromToMany($0, atSlot: slot) }
    }

    /// Puts `object` in the place of the destination at `idx`; like Foundation's ordered sets,
    /// does nothing when `object` is already elsewhere in the set.
    override func replaceObject(at idx: Int, with object: Any) {
        let current = destinations
        guard current.indices.contains(idx), let object = object as? NSManagedObject, current[idx] !== object, !contains(object) else { return }
        removeObject(at: idx)
        insert(object, at: idx)
    }

    /// Puts `objects` in the place of the destinations in `range`, in their order (Foundation's
    /// base class pairs them with the range's indexes backwards).
    override func replaceObjects(in range: NSRange, with objects: UnsafePointer<AnyObject>!, count: Int) {
        let current = destinations
        guard let bounds = Range(range), bounds.upperBound <= current.count else { return }
        let incoming = UnsafeBufferPointer(start: objects, count: count).compactMap { $0 as? NSManagedObject }
        let isIncoming = { (object: NSManagedObject) in incoming.contains { $0 === object } }
        let order = current[..<bounds.lowerBound].filter { !isIncoming($0) } + incoming + current[bounds.upperBound...].filter { !isIncoming($0) }
        owner.replaceToMany(with: order, atSlot: slot)
    }

    override func intersect(_ other: NSOrderedSet) {
        destinations.filter { !other.contains($0) }.forEach(remove)
    }

    // MARK: Reordering

    override func exchangeObject(at idx1: Int, withObjectAt idx2: Int) {
        var order = destinations
        guard order.indices.contains(idx1), order.indices.contains(idx2) else { return }
        order.swapAt(idx1, idx2)
        reorder(order)
    }

    override func moveObjects(at indexes: IndexSet, to idx: Int) {
        let current = destinations
        guard let last = indexes.last, last < current.count, idx >= 0, idx <= current.count - indexes.count else { return }
        var order = current.indices.filter { !indexes.contains($0) }.map { current[$0] }
        order.insert(contentsOf: indexes.map { current[$0] }, at: idx)
        reorder(order)
    }

    override func sortRange(_ range: NSRange, options opts: NSSortOptions = [], usingComparator cmptr: (Any, Any) -> ComparisonResult) {
        var order = destinations
        guard let bounds = Range(range), bounds.upperBound <= order.count else { return }
        let sorted = NSArray(array: Array(order[bounds])).sortedArray(options: opts, usingComparator: cmptr)
        order.replaceSubrange(bounds, with: sorted.compactMap { $0 as? NSManagedObject })
        reorder(order)
    }

    override func sort(using sortDescriptors: [Foundation.NSSortDescriptor]) {
        reorder(sortedArray(using: sortDescriptors).compactMap { $0 as? NSManagedObject })
    }

    /// Puts the same destinations in a new order.
    private func reorder(_ order: [NSManagedObject]) {
        owner.willChangeSlot(slot)
        owner.relatedObjects(atSlot: slot).replace(with: order)
        owner.markChanged(slot: slot)
    }
}
