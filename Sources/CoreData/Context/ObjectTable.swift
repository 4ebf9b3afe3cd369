/// An open-addressing hash table from a 64-bit key (a primary key, or a temporary ID's number)
/// to an unretained object, in one allocation of 16-byte entries.
///
/// Primary keys are mostly consecutive, and a fetch registers its rows, and later deallocates
/// their objects, in key order. The table therefore starts with each key's home bucket at the key
/// itself (modulo the capacity), so that consecutive keys fill neighbouring buckets and a fetch
/// walks memory in order instead of missing the cache on every object, as a scrambling hash would.
/// Keys that collide in long runs under that hash (multiples of a large power of two, say) make
/// the table switch for good to a multiplicative hash, which spreads any keys.
///
/// Robin Hood linear probing: along a run, entries lie in the order of their home buckets, so a
/// lookup stops at the first entry closer to its home than the key would be, and a removal shifts
/// back only the entries that are away from their home (none, for consecutive keys). The table
/// does not retain its objects and is not thread-safe: `ObjectRegistry` owns it and guards it
/// with its lock.
struct ObjectTable {
    private struct Entry {
        var key: Int64
        /// The object; nil marks an empty bucket.
        var object: UnsafeMutableRawPointer?
    }

    /// A probe longer than this under the locality-preserving hash makes the table scramble keys.
    private static let longProbe = 32

    private var entries: UnsafeMutablePointer<Entry>?
    private var mask = 0
    private(set) var count = 0
    /// Whether keys are scrambled by a multiplicative hash instead of being their own bucket.
    private var scramblesKeys = false

    var capacity: Int { entries == nil ? 0 : mask + 1 }

    /// Frees the entries; the table is empty afterwards.
    mutating func deallocate() {
        entries?.deallocate()
        entries = nil
        mask = 0
        count = 0
        scramblesKeys = false
    }

    // MARK: Lookup

    /// The object registered under a key.
    @inline(__always)
    func object(for key: Int64) -> UnsafeMutableRawPointer? {
        index(of: key).map { entries.unsafelyUnwrapped[$0].object.unsafelyUnwrapped }
    }

    /// Every registered object.
    func forEachObject(_ body: (UnsafeMutableRawPointer) -> Void) {
        guard let entries else { return }
        for index in 0...mask {
            if let object = entries[index].object { body(object) }
        }
    }

    // MARK: Changes

    /// Registers an object under a key, replacing what was registered there; returns the object
    /// replaced.
    @discardableResult
    mutating func set(_ object: UnsafeMutableRawPointer, for key: Int64) -> UnsafeMutableRawPointer? {
        update(key) { registered in (object, registered) }
    }

    /// Registers under a key the object `body` picks given the one registered there (nil when
    /// none is), and returns `body`'s result.
    mutating func update<Result>(_ key: Int64, _ body: (_ registered: UnsafeMutableRawPointer?) -> (object: UnsafeMutableRawPointer, result: Result)) -> Result {
        if let index = index(of: key) {
            let (object, result) = body(entries.unsafelyUnwrapped[index].object)
            entries.unsafelyUnwrapped[index].object = object
            return result
        }
        let (object, result) = body(nil)
        reserveCapacity(count + 1)
        insertNew(Entry(key: key, object: object))
        return result
    }

    /// Removes the registration of a key when `matching` (when given) is the object registered.
    mutating func remove(_ key: Int64, matching: UnsafeMutableRawPointer? = nil) {
        guard let index = index(of: key), let entries else { return }
        if let matching, matching != entries[index].object { return }
        // Shifts back the rest of the run up to an entry at its home or an empty bucket.
        var hole = index
        var next = (hole &+ 1) & mask
        while entries[next].object != nil && displacement(ofEntryAt: next) > 0 {
            entries[hole] = entries[next]
            hole = next
            next = (next &+ 1) & mask
        }
        entries[hole].object = nil
        count -= 1
    }

    /// Makes room for `needed` entries without growing again, at a load of at most 3/4.
    mutating func reserveCapacity(_ needed: Int) {
        guard needed * 4 > capacity * 3 else { return }
        var newCapacity = max(capacity * 2, 16)
        while needed * 4 > newCapacity * 3 { newCapacity *= 2 }
        rehash(capacity: newCapacity)
    }

    // MARK: Internals

    @inline(__always)
    private func home(of key: Int64) -> Int {
        let bits = UInt64(bitPattern: key)
        guard scramblesKeys else { return Int(truncatingIfNeeded: bits) & mask }
        // Fibonacci hashing: the high bits of the product depend on every bit of the key.
        return Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    /// How far the entry in bucket `index` lies from its home bucket.
    @inline(__always)
    private func displacement(ofEntryAt index: Int) -> Int {
        (index &- home(of: entries.unsafelyUnwrapped[index].key)) & mask
    }

    /// The bucket of a key, or nil when the key is not registered.
    @inline(__always)
    private func index(of key: Int64) -> Int? {
        guard let entries else { return nil }
        var index = home(of: key)
        var distance = 0
        while entries[index].object != nil {
            if entries[index].key == key { return index }
            // Past the entries whose home is at or before the key's: the key is not here.
            if displacement(ofEntryAt: index) < distance { return nil }
            index = (index &+ 1) & mask
            distance += 1
        }
        return nil
    }

    private mutating func rehash(capacity newCapacity: Int) {
        let old = entries
        let oldCapacity = capacity
        let fresh = UnsafeMutablePointer<Entry>.allocate(capacity: newCapacity)
        fresh.initialize(repeating: Entry(key: 0, object: nil), count: newCapacity)
        entries = fresh
        mask = newCapacity - 1
        count = 0
        guard let old else { return }
        for index in 0..<oldCapacity {
            if old[index].object != nil { insertNew(old[index]) }
        }
        old.deallocate()
    }

    /// Inserts an entry whose key is absent, with room for it: where an entry closer to its home
    /// lies, the new one takes its bucket and the displaced one moves on.
    private mutating func insertNew(_ entry: Entry) {
        let entries = self.entries.unsafelyUnwrapped
        var carried = entry
        var index = home(of: carried.key)
        var distance = 0
        while entries[index].object != nil {
            if distance > Self.longProbe && !scramblesKeys {
                // Keys collide in long runs under the local hash: spread them for good.
                scramblesKeys = true
                rehash(capacity: capacity)
                return insertNew(carried)
            }
            let residentDistance = displacement(ofEntryAt: index)
            if residentDistance < distance {
                swap(&carried, &entries[index])
                distance = residentDistance
            }
            index = (index &+ 1) & mask
            distance += 1
        }
        entries[index] = carried
        count += 1
    }
}
