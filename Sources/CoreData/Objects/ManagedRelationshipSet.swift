/// The mutable set `mutableSetValue(forKey:)` returns: adding and removing objects edits the
/// relationship, inverses included, and reading reflects the relationship's current destinations.
///
/// Linux's NSSet bridges to Swift's `Set` from its own storage, not through the primitive methods,
/// so the proxy also mirrors its changes into that storage.
final class ManagedRelationshipSet: NSMutableSet {
    private let owner: NSManagedObject
    private let slot: Int

    init(owner: NSManagedObject, slot: Int) {
        self.owner = owner
        self.slot = slot
        super.init(capacity: 0)
        owner.destinations(atSlot: slot).forEach { super.add($0) }
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
        super.add(object)
    }

    override func remove(_ object: Any) {
        guard let object = object as? NSManagedObject else { return }
        owner.removeFromToMany(object, atSlot: slot)
        super.remove(object)
    }
}

/// The mutable ordered set `mutableOrderedSetValue(forKey:)` returns: edits change the ordered
/// relationship, inverses included.
final class ManagedRelationshipOrderedSet: NSMutableOrderedSet {
    private let owner: NSManagedObject
    private let slot: Int

    init(owner: NSManagedObject, slot: Int) {
        self.owner = owner
        self.slot = slot
        super.init(capacity: 0)
        owner.destinations(atSlot: slot).forEach { super.add($0) }
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

    override var count: Int {
        owner.relatedObjects(atSlot: slot).count
    }

    override func object(at idx: Int) -> Any {
        owner.relatedObjects(atSlot: slot).objects[idx]
    }

    override func index(of object: Any) -> Int {
        owner.relatedObjects(atSlot: slot).objects.firstIndex { $0 === object as AnyObject } ?? NSNotFound
    }

    override func insert(_ object: Any, at idx: Int) {
        guard let object = object as? NSManagedObject else { return }
        owner.addToToMany(object, atSlot: slot, at: idx)
        super.insert(object, at: Swift.min(idx, super.count))
    }

    override func removeObject(at idx: Int) {
        let object = owner.relatedObjects(atSlot: slot).objects[idx]
        owner.removeFromToMany(object, atSlot: slot)
        super.remove(object)
    }

    override func replaceObject(at idx: Int, with object: Any) {
        removeObject(at: idx)
        insert(object, at: idx)
    }
}
