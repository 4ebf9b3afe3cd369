import Foundation

/// The coordinator's cache of rows, shared by its contexts: the rows faults loaded and the rows
/// saves committed, by object identity.
///
/// A context reuses a cached row to fulfil a fault, or to refresh objects when it merges a save,
/// unless a later save changed the row or the row is older than the context's
/// `stalenessInterval`. Fetches hand their rows to their objects directly and do not go through
/// the cache, which keeps the fetch path free of the cache's lock.
///
/// The cache holds at most `capacity` rows, in two generations: new rows go to the recent one,
/// which becomes the old one (dropping the previous old one) when it holds half the capacity.
/// Lookups and inserts stay O(1) and rows unused for a while leave without bookkeeping per row.
// The two tables are guarded by `lock`; contexts on any queue read and fill the cache.
final class RowCache: @unchecked Sendable {
    private let lock = NSLock()
    private var recent: [ObjectIdentity: RowSnapshot] = [:]
    private var old: [ObjectIdentity: RowSnapshot] = [:]
    private let generationSize: Int

    /// Creates a cache of at most `capacity` rows.
    init(capacity: Int = 32_768) {
        generationSize = max(capacity / 2, 1)
    }

    /// The cached row of an object.
    func row(for identity: ObjectIdentity) -> RowSnapshot? {
        lock.withLock { recent[identity] ?? old[identity] }
    }

    /// Caches rows, replacing older rows of the same objects.
    func insert<Rows: Sequence>(_ rows: Rows) where Rows.Element == RowSnapshot {
        lock.withLock {
            for row in rows {
                if recent.count >= generationSize {
                    old = recent
                    recent = [:]
                }
                recent[row.objectIDValue.identity] = row
                old[row.objectIDValue.identity] = nil
            }
        }
    }

    /// Caches the rows of objects a save has just inserted. No row of theirs can be cached yet,
    /// so none is looked for; and of more rows than a generation holds, the earlier ones would
    /// only push each other out, so only the last generation's worth is inserted.
    func insertNewRows(_ rows: [RowSnapshot]) {
        let newRows = rows.suffix(generationSize)
        lock.withLock {
            // Filled as a local sized once for the rows, not grown and rehashed step by step,
            // and without an exclusivity check of the stored table per row.
            var table = recent
            recent = [:]
            var remaining = newRows.count
            table.reserveCapacity(min(table.count + remaining, generationSize))
            for row in newRows {
                if table.count >= generationSize {
                    old = table
                    table = Dictionary(minimumCapacity: remaining)
                }
                table[row.objectIDValue.identity] = row
                remaining -= 1
            }
            recent = table
        }
    }

    /// Forgets every row of a store (by its identity number), whose file was replaced.
    func removeRows(ofStore store: UInt32) {
        lock.withLock {
            recent = recent.filter { $0.key.store != store }
            old = old.filter { $0.key.store != store }
        }
    }

    /// Forgets the rows of objects whose rows were deleted.
    func remove<Identities: Sequence>(_ identities: Identities) where Identities.Element == ObjectIdentity {
        lock.withLock {
            for identity in identities {
                recent[identity] = nil
                old[identity] = nil
            }
        }
    }
}
