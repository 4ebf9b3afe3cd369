import Synchronization

/// Which rows of a store changed in which save, so that a fault holding the row of an earlier
/// fetch knows the row is stale and must be read again (a context sees the saves of its
/// siblings on the same coordinator, as with Apple's row cache).
///
/// Saves advance the store's generation; each snapshot records the generation it was read at.
// The generation and table are guarded by `lock`; `changedRowCount` lets readers skip the lock
// while nothing has changed, which is the common case for freshly fetched rows.
package final class RowChangeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var generation = 0
    private var lastChange: [ObjectIdentity: Int] = [:]
    /// The generation of the last change to rows no list names: every row read before it is stale.
    private var lastUnlistedChange = 0
    private let hasChanges = Atomic<Bool>(false)

    /// The generation rows read now belong to.
    package var currentGeneration: Int {
        lock.withLock { generation }
    }

    /// Records a committed save that updated or deleted `rows`; returns the new generation.
    @discardableResult
    func record(_ rows: [ObjectIdentity]) -> Int {
        lock.withLock {
            generation += 1
            for row in rows { lastChange[row] = generation }
            if !lastChange.isEmpty { hasChanges.store(true, ordering: .releasing) }
            return generation
        }
    }

    /// Records a committed change to rows no list names (a batch request run as SQL alone), which
    /// makes every row read before it stale.
    func recordUnlistedChanges() {
        lock.withLock {
            generation += 1
            lastUnlistedChange = generation
            hasChanges.store(true, ordering: .releasing)
        }
    }

    /// Whether a row read at `generation` has changed since.
    func isStale(_ row: ObjectIdentity, readAt generation: Int) -> Bool {
        guard hasChanges.load(ordering: .acquiring) else { return false }
        return lock.withLock { lastUnlistedChange > generation || (lastChange[row] ?? 0) > generation }
    }
}
