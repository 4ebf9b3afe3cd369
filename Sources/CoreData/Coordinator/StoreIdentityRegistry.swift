import Synchronization

/// The small numbers that stand for stores in object IDs, so that an ID holds two integers instead
/// of a reference to its store and the store's UUID.
///
/// - An *identity number* interns a store UUID. IDs from two coordinators on one store file share
///   it, which makes them equal; it gives the UUID back for `uriRepresentation()`, even after the
///   store is gone. 0 stands for "no UUID".
/// - A *store number* names one store object. Live stores are held weakly here, once per store,
///   so that `persistentStore` of an ID is nil once its store is deallocated, without every ID
///   keeping a weak reference (which would make each retain of the store take the slow path).
///   Numbers are never reused, so an ID of a dead store never finds another. 0 stands for "no store".
// `state` is guarded by `lock`. An `NSLock` rather than `Synchronization.Mutex`: ThreadSanitizer
// sees pthread mutexes as synchronization but not the futex `Mutex` uses on Linux.
final class StoreIdentityRegistry: @unchecked Sendable {
    static let shared = StoreIdentityRegistry()

    private struct WeakStore {
        weak var store: NSPersistentStore?
    }

    private struct State {
        var identityNumbers: [String: UInt32] = [:]
        /// The UUID of identity number `n` at index `n - 1`.
        var identifiers: [String] = []
        var liveStores: [UInt32: WeakStore] = [:]
        var lastStoreNumber: UInt32 = 0
        /// The identity numbers of the stores that hear of their objects' registrations.
        var reportedIdentities: Set<UInt32> = []
    }

    private let lock = NSLock()
    private var state = State()
    /// Whether any store hears of registrations: until one does, a context's registry asks
    /// nothing when it makes a group of objects.
    private let reportsAnyRegistrations = Atomic<Bool>(false)

    // MARK: Identity numbers

    /// The identity number of a store UUID; 0 for nil.
    func number(for identifier: String?) -> UInt32 {
        guard let identifier else { return 0 }
        return lock.withLock {
            if let known = state.identityNumbers[identifier] { return known }
            state.identifiers.append(identifier)
            // A process would run out of memory for UUIDs long before 2³² of them.
            let number = UInt32(state.identifiers.count)
            state.identityNumbers[identifier] = number
            return number
        }
    }

    /// The store UUID an identity number stands for; nil for 0.
    func identifier(numbered number: UInt32) -> String? {
        guard number > 0 else { return nil }
        return lock.withLock { state.identifiers[Int(number) - 1] }
    }

    // MARK: Store numbers

    /// A new store number, for a store that registers itself with it once initialized.
    func newStoreNumber() -> UInt32 {
        lock.withLock {
            // Each number is a store object created; a process cannot create 2³² of them.
            state.lastStoreNumber += 1
            return state.lastStoreNumber
        }
    }

    /// Makes a store findable by its store number while it lives.
    func register(_ store: NSPersistentStore) {
        lock.withLock { state.liveStores[store.storeNumber] = WeakStore(store: store) }
    }

    /// The store with a store number, if it still lives.
    func store(numbered number: UInt32) -> NSPersistentStore? {
        guard number > 0 else { return nil }
        return lock.withLock { state.liveStores[number]?.store }
    }

    // MARK: Stores that hear of registrations

    /// Makes contexts tell the store with an identity number which of its objects they register
    /// and unregister (`NSIncrementalStore`).
    func reportRegistrations(toStoreIdentity number: UInt32) {
        lock.withLock { _ = state.reportedIdentities.insert(number) }
        reportsAnyRegistrations.store(true, ordering: .releasing)
    }

    /// Whether contexts tell the store with an identity number of their registrations.
    func reportsRegistrations(toStoreIdentity number: UInt32) -> Bool {
        guard reportsAnyRegistrations.load(ordering: .acquiring) else { return false }
        return lock.withLock { state.reportedIdentities.contains(number) }
    }

    /// Forgets a deallocated store's number.
    func unregisterStore(numbered number: UInt32) {
        lock.withLock { state.liveStores[number] = nil }
    }
}
