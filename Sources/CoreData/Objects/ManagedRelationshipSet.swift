/// The mutable set `mutableSetValue(forKey:)` returns: adding and removing objects edits the
/// relationship, inverses included, and reading reflects the relationship's current destinations.
///
/// It works through NSMutableSet's primitive methods. Linux Foundation bridges an NSSet to Swift's
/// `Set` from the base class's own storage, which this subclass cannot fill (the base class traps
/// when a subclass calls into it), so read the relationship through `value(forKey:)` to get a
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
}

/// The mutable ordered set `mutableOrderedSetValue(forKey:)` returns: edits change the ordered
/// relationship, inverses included. Like `ManagedRelationshipSet`, it works through the
/// primitive methods and never calls into the base class's storage.
final class ManagedRelationshipOrderedSet: NSMutableOrderedSet {
    private let owner: NSManagedObject
    private let slot: Int

    init(owner: NSManagedObject, slot: Int) {
        self.owner = owner
        self.slot = slot
        super.init(capacity: 0)
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

    private var destinations: [NSManagedObject] {
        owner.relatedObjects(atSlot: slot).objects
    }

    override var count: Int {
        destinations.count
    }

    override func object(at idx: Int) -> Any {
        destinations[idx]
    }

    override func index(of object: Any) -> Int {
        destinations.firstIndex { $0 === object as AnyObject } ?? NSNotFound
    }

    override func contains(_ object: Any) -> Bool {
        index(of: object) != NSNotFound
    }

    override func add(_ object: Any) {
        insert(object, at: count)
    }

    override func addObjects(from array: [Any]) {
        array.forEach(add)
    }

    override func insert(_ object: Any, at idx: Int) {
        guard let object = object as? NSManagedObject else { return }
        owner.addToToMany(object, atSlot: slot, at: idx)
        owner.relatedObjects(atSlot: slot).move(object, to: idx)
        owner.markChanged(slot: slot)
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

    override func replaceObject(at idx: Int, with object: Any) {
        removeObject(at: idx)
        insert(object, at: idx)
    }

    // Foundation implements these on the base class's storage, not through the methods above.

    override func exchangeObject(at idx1: Int, withObjectAt idx2: Int) {
        var order = destinations
        order.swapAt(idx1, idx2)
        reorder(order)
    }

    override func sortRange(_ range: NSRange, options opts: NSSortOptions = [], usingComparator cmptr: (Any, Any) -> ComparisonResult) {
        guard let bounds = Range(range) else { return }
        var order = destinations
        order.replaceSubrange(bounds, with: order[bounds].sorted { cmptr($0, $1) == .orderedAscending })
        reorder(order)
    }

    override func intersect(_ other: NSOrderedSet) {
        destinations.filter { !other.contains($0) }.forEach(remove)
    }

    /// Puts the same destinations in a new order.
    private func reorder(_ order: [NSManagedObject]) {
        let related = owner.relatedObjects(atSlot: slot)
        for (index, object) in order.enumerated() {
            related.move(object, to: index)
        }
        owner.markChanged(slot: slot)
    }
}
