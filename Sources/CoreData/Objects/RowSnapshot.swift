import Foundation

/// The persistent state of one row as its store last reported it: immutable, so fetches, faults
/// and contexts can share it without copying.
///
/// `values` is indexed by the entity layout's slots. Attributes hold their key-value-coding value
/// (or a `LazyAttributeValue` for external binary data that is loaded when read); to-one
/// relationships hold the destination's `NSManagedObjectID`; to-many slots are nil, because
/// to-many relationships are loaded separately when first accessed.
// Immutable after creation; the values are Foundation value objects that are never mutated.
final class RowSnapshot: @unchecked Sendable {
    let objectID: NSManagedObjectID
    /// The optimistic-locking version (`Z_OPT`).
    let version: Int64
    let values: ContiguousArray<Any?>
    /// The store generation the row was read at (see `RowChangeLog`).
    let generation: Int
    /// When the row was read, in `DispatchTime` uptime nanoseconds, for `stalenessInterval`.
    let readTime: UInt64

    init(objectID: NSManagedObjectID, version: Int64, values: ContiguousArray<Any?>, generation: Int, readTime: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        self.objectID = objectID
        self.version = version
        self.values = values
        self.generation = generation
        self.readTime = readTime
    }

    /// Whether the row may not fulfil a fault: another save changed it since it was read, or it
    /// is older than `stalenessInterval` (which, as Apple documents, only SQLite stores apply).
    func isStale(stalenessInterval: TimeInterval) -> Bool {
        guard let store = objectID.persistentStore else { return false }
        if isOlder(than: stalenessInterval) && store.type == NSSQLiteStoreType { return true }
        return store.rowChanges.isStale(objectID.identity, readAt: generation)
    }

    /// Whether the row was read more than `interval` seconds ago; a negative interval means never.
    func isOlder(than interval: TimeInterval, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        guard interval >= 0 else { return false }
        return Double(now &- readTime) > interval * 1_000_000_000
    }
}

/// An attribute value the store has not loaded yet (external binary data), resolved on first read.
protocol LazyAttributeValue: AnyObject, Sendable {
    /// Loads the value, or returns nil when it cannot be loaded.
    func load() -> Any?
}
