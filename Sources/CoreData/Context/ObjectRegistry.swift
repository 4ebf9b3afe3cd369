/// The objects of a context by ID — one object per record — held without retaining them.
///
/// An object leaves the registry when it is deallocated, and the last reference to an object may
/// go away on any thread (a notification holding saved objects can be released elsewhere), so
/// every access takes the lock.
// All state is guarded by `lock`.
final class ObjectRegistry: @unchecked Sendable {
    private let lock = NSLock()
    private var objects: [ObjectIdentity: Unmanaged<NSManagedObject>] = [:]

    /// The object registered for an identity.
    func object(for identity: ObjectIdentity) -> NSManagedObject? {
        lock.withLock { objects[identity]?.takeUnretainedValue() }
    }

    /// Registers an object under an identity.
    func register(_ object: NSManagedObject, as identity: ObjectIdentity) {
        lock.withLock { objects[identity] = Unmanaged.passUnretained(object) }
    }

    /// Removes the registration of an identity when it is `object`'s (objects unregistering
    /// themselves from `deinit`).
    func unregister(_ identity: ObjectIdentity, object: NSManagedObject) {
        let pointer = Unmanaged.passUnretained(object).toOpaque()
        lock.withLock {
            if let index = objects.index(forKey: identity), objects[index].value.toOpaque() == pointer {
                objects.remove(at: index)
            }
        }
    }

    /// Removes whatever is registered under an identity.
    func remove(_ identity: ObjectIdentity) {
        lock.withLock { _ = objects.removeValue(forKey: identity) }
    }

    /// Finds the object registered for an identity, or registers the one `resolve` returns, with
    /// a single hash lookup. Returns the object and whether it was registered now.
    func resolve(_ identity: ObjectIdentity, _ resolve: (NSManagedObject?) -> NSManagedObject) -> (object: NSManagedObject, isNew: Bool) {
        lock.withLock {
            var isNew = false
            func update(_ entry: inout Unmanaged<NSManagedObject>?) -> NSManagedObject {
                let object = resolve(entry?.takeUnretainedValue())
                isNew = entry == nil
                entry = Unmanaged.passUnretained(object)
                return object
            }
            return (update(&objects[identity]), isNew)
        }
    }

    /// Every registered object.
    var allObjects: [NSManagedObject] {
        lock.withLock { objects.values.map { $0.takeUnretainedValue() } }
    }

    /// Empties the registry and returns what it held.
    func removeAll() -> [NSManagedObject] {
        lock.withLock {
            let all = objects.values.map { $0.takeUnretainedValue() }
            objects = [:]
            return all
        }
    }

    /// Makes room for `count` more objects. The table at least doubles when it grows, so that
    /// many small reservations (one per to-many fault) cost no more than the growth of inserts.
    func reserveCapacity(forAdditional count: Int) {
        lock.withLock {
            let needed = objects.count + count
            guard needed > objects.capacity else { return }
            objects.reserveCapacity(max(needed, objects.capacity * 2))
        }
    }
}
