import Synchronization

/// The objects of a context by ID — one object per record — held without retaining them.
///
/// An object leaves the registry when it is deallocated, and the last reference to an object may
/// go away on any thread (a notification holding saved objects can be released elsewhere), so
/// every access takes the lock. A fetch registers all its rows under one lock (`withLock`).
// A `Mutex`, not an `NSLock`: every deallocated object takes it.
final class ObjectRegistry: ObjectUnregistering, Sendable {
    private let registered = Mutex(RegisteredObjects())
    /// Whether the registrations hold reports for stores not taken yet: read without the lock,
    /// so that a context of stores that want none pays one load to know there are none.
    private let holdsReports = Atomic<Bool>(false)

    deinit {
        registered.withLock { $0.deallocate() }
    }

    /// Runs `body` with the registrations, under the lock: for work on many objects at once.
    /// `body` must not release a managed object (its `deinit` takes the lock).
    func withLock<Result>(_ body: (inout RegisteredObjects) -> Result) -> Result {
        registered.withLock { registered in
            let result = body(&registered)
            if registered.holdsReports { holdsReports.store(true, ordering: .relaxed) }
            return result
        }
    }

    /// Whether reports may wait to be taken, without taking the lock.
    var mayHoldReports: Bool {
        holdsReports.load(ordering: .relaxed)
    }

    /// The registrations and unregistrations to report to the stores that want them, taken; nil
    /// when there are none.
    func takeReports() -> RegistrationReports? {
        guard holdsReports.load(ordering: .relaxed) else { return nil }
        return registered.withLock { registered in
            holdsReports.store(false, ordering: .relaxed)
            return registered.takeReports()
        }
    }

    /// The object registered for an identity.
    func object(for identity: ObjectIdentity) -> NSManagedObject? {
        withLock { $0.object(for: identity) }
    }

    /// Registers an object under an identity.
    func register(_ object: NSManagedObject, as identity: ObjectIdentity) {
        withLock { $0.register(object, as: identity) }
    }

    /// Removes the registration of an identity when it is `object`'s (objects unregistering
    /// themselves from `deinit`).
    func unregister(_ identity: ObjectIdentity, object: NSManagedObject) {
        withLock { $0.remove(identity, matching: object) }
    }

    /// Removes whatever is registered under an identity.
    func remove(_ identity: ObjectIdentity) {
        withLock { $0.remove(identity, matching: nil) }
    }

    /// Finds the object registered for an identity, or registers the one `resolve` returns, with
    /// a single hash lookup. Returns the object and whether it was registered now.
    func resolve(_ identity: ObjectIdentity, _ resolve: (NSManagedObject?) -> NSManagedObject) -> (object: NSManagedObject, isNew: Bool) {
        withLock { $0.resolve(identity, resolve) }
    }

    /// Every registered object.
    var allObjects: [NSManagedObject] {
        withLock { $0.allObjects }
    }

    /// Empties the registry and returns what it held.
    func removeAll() -> [NSManagedObject] {
        withLock { registered in
            let all = registered.allObjects
            registered.reportRemovalOfAll()
            registered.deallocate()
            return all
        }
    }
}

/// The registrations of a context: one `ObjectTable` per entity hierarchy, store and kind of key
/// (permanent or temporary), keyed by the primary key or the temporary ID's number. A context
/// has few such groups, and one table per group needs only 16 bytes per object.
///
/// The registrations and removals of objects of the stores that want to hear of them
/// (`NSIncrementalStore`) are also kept as reports, for the context to pass on.
// Sendable so that the registry's `Mutex` can hold it: it is only reached through that lock.
struct RegisteredObjects: @unchecked Sendable {
    private struct Group {
        let root: ObjectIdentifier
        let store: UInt32
        let isTemporary: Bool
        /// Whether the group's store hears of its objects' registrations.
        let isReported: Bool
        var table = ObjectTable()

        @inline(__always)
        func holds(_ identity: ObjectIdentity) -> Bool {
            identity.root == root && identity.store == store && identity.isTemporary == isTemporary
        }
    }

    private var groups: [Group] = []
    private var reports = RegistrationReports()

    /// Whether reports wait to be taken.
    var holdsReports: Bool {
        !reports.isEmpty
    }

    /// The reports kept since they were last taken, emptied.
    mutating func takeReports() -> RegistrationReports {
        defer { reports = RegistrationReports() }
        return reports
    }

    /// Frees every table.
    mutating func deallocate() {
        for index in groups.indices { groups[index].table.deallocate() }
        groups = []
    }

    /// The object registered for an identity.
    func object(for identity: ObjectIdentity) -> NSManagedObject? {
        guard let group = groupIndex(of: identity), let object = groups[group].table.object(for: identity.number) else { return nil }
        return Unmanaged<NSManagedObject>.fromOpaque(object).takeUnretainedValue()
    }

    /// Registers an object under an identity, replacing what was registered there.
    mutating func register(_ object: NSManagedObject, as identity: ObjectIdentity) {
        let group = makeGroupIndex(of: identity)
        let replaced = groups[group].table.set(Unmanaged.passUnretained(object).toOpaque(), for: identity.number)
        if groups[group].isReported, replaced == nil, let objectID = object.identifier { reports.registered.append(objectID) }
    }

    /// Removes the registration of an identity, only when it is `matching`'s when that is given.
    mutating func remove(_ identity: ObjectIdentity, matching object: NSManagedObject?) {
        guard let group = groupIndex(of: identity) else { return }
        if groups[group].isReported { reportRemoval(of: identity, in: group, matching: object) }
        groups[group].table.remove(identity.number, matching: object.map { Unmanaged.passUnretained($0).toOpaque() })
        if groups[group].table.count == 0 {
            // The memory of a released fetch goes back, as its objects go.
            groups[group].table.deallocate()
            groups.remove(at: group)
        }
    }

    /// Finds the object registered for an identity, or registers the one `resolve` returns, with
    /// a single hash lookup. Returns the object and whether it was registered now.
    ///
    /// - Parameter expected: How many more objects of the same group are about to be registered,
    ///   so that the table grows once for all of them.
    mutating func resolve(_ identity: ObjectIdentity, expecting expected: Int = 1,
                          _ resolve: (NSManagedObject?) -> NSManagedObject) -> (object: NSManagedObject, isNew: Bool) {
        let group = makeGroupIndex(of: identity)
        groups[group].table.reserveCapacity(groups[group].table.count + expected)
        let resolved = groups[group].table.update(identity.number) { bucket in
            let registered = bucket.map { Unmanaged<NSManagedObject>.fromOpaque($0).takeUnretainedValue() }
            let object = resolve(registered)
            return (Unmanaged.passUnretained(object).toOpaque(), (object: object, isNew: registered == nil))
        }
        if groups[group].isReported, resolved.isNew, let objectID = resolved.object.identifier { reports.registered.append(objectID) }
        return resolved
    }

    /// Reports the removal of the object registered under an identity of a reported group, when
    /// it is `object` (an object unregistering itself from its `deinit`, whose ID it still has).
    private mutating func reportRemoval(of identity: ObjectIdentity, in group: Int, matching object: NSManagedObject?) {
        guard let registered = groups[group].table.object(for: identity.number) else { return }
        let removed = object ?? Unmanaged<NSManagedObject>.fromOpaque(registered).takeUnretainedValue()
        guard Unmanaged.passUnretained(removed).toOpaque() == registered, let objectID = removed.identifier else { return }
        reports.unregistered.append(objectID)
    }

    /// Reports the removal of every object of the reported groups (before they are emptied).
    mutating func reportRemovalOfAll() {
        for group in groups where group.isReported {
            group.table.forEachObject { object in
                if let objectID = Unmanaged<NSManagedObject>.fromOpaque(object).takeUnretainedValue().identifier {
                    reports.unregistered.append(objectID)
                }
            }
        }
    }

    /// Every registered object.
    var allObjects: [NSManagedObject] {
        var all: [NSManagedObject] = []
        all.reserveCapacity(groups.reduce(0) { $0 + $1.table.count })
        for group in groups {
            group.table.forEachObject { all.append(Unmanaged<NSManagedObject>.fromOpaque($0).takeUnretainedValue()) }
        }
        return all
    }

    @inline(__always)
    private func groupIndex(of identity: ObjectIdentity) -> Int? {
        groups.firstIndex { $0.holds(identity) }
    }

    private mutating func makeGroupIndex(of identity: ObjectIdentity) -> Int {
        if let index = groupIndex(of: identity) { return index }
        let isReported = !identity.isTemporary && StoreIdentityRegistry.shared.reportsRegistrations(toStoreIdentity: identity.store)
        groups.append(Group(root: identity.root, store: identity.store, isTemporary: identity.isTemporary, isReported: isReported))
        return groups.count - 1
    }
}

private extension ObjectIdentity {
    /// The key within the identity's group: the primary key, or the temporary number's bits.
    var number: Int64 {
        switch key {
        case .permanent(let primaryKey): primaryKey
        case .temporary(let counter): Int64(bitPattern: counter)
        }
    }

    var isTemporary: Bool {
        if case .temporary = key { return true }
        return false
    }
}
