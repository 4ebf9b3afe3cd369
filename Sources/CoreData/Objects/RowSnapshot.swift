import Foundation

/// The persistent state of one row as its store last reported it, in one allocation: a header
/// (what the row's ID holds, version, generation and read time) followed by the slots laid out by the
/// entity's `StoragePlan` — scalar words, their null bits, then `Any?` cells.
///
/// A row is immutable once shared: fetches, faults and contexts share it without copying, and a
/// managed object reads its values from the very row it was fetched as until its first change
/// (`SlotValues` copies the row then). Attributes hold their key-value-coding value (scalars as
/// words, made into `NSNumber` or `Date` only when read; a `LazyAttributeValue` for external
/// binary data that is loaded when read); to-one relationships hold the destination's
/// `NSManagedObjectID` (an object's own copy may hold the destination object); to-many slots are
/// nil in a row, because to-many relationships are loaded separately when first accessed.
// Mutated only through a `SlotValues` that holds the only reference (copy-on-write), so a row
// that is shared (between threads, through the row cache) is never written.
package final class RowSnapshot: ManagedBuffer<RowSnapshot.Header, UInt64>, @unchecked Sendable {
    package struct Header {
        let plan: StoragePlan
        /// What the row's object ID holds (no ID object is made for a row until one is asked
        /// for); nil only in an object's own values, until they become its snapshot.
        var identifier: ObjectIDValue?
        /// The optimistic-locking version (`Z_OPT`).
        var version: Int64
        /// The store generation the row was read at (see `RowChangeLog`).
        var generation: Int
        /// When the row was read, in `DispatchTime` uptime nanoseconds, for `stalenessInterval`.
        var readTime: UInt64
        /// Values of scalar slots that a word cannot hold exactly (a value of the wrong type that
        /// validation must still see, an integer given as a double, …), by slot; their null bit is set.
        var parked: [Int: Any]
    }

    /// A row with every slot nil.
    static func make(plan: StoragePlan, objectID: ObjectIDValue?, version: Int64 = 0, generation: Int = 0,
                     readTime: UInt64 = DispatchTime.now().uptimeNanoseconds) -> RowSnapshot {
        let header = Header(plan: plan, identifier: objectID, version: version, generation: generation, readTime: readTime, parked: [:])
        let row = unsafeDowncast(create(minimumCapacity: plan.wordCount) { _ in header }, to: RowSnapshot.self)
        row.withUnsafeMutablePointerToElements { words in
            words.initialize(repeating: 0, count: plan.scalarCount)
            (words + plan.nullWordOffset).initialize(repeating: ~0, count: plan.nullWordCount)
            let cells = UnsafeMutableRawPointer(words + plan.referenceWordOffset).bindMemory(to: Any?.self, capacity: plan.referenceCount)
            cells.initialize(repeating: nil, count: plan.referenceCount)
        }
        return row
    }

    /// The row of `values` under a new identity: `values`' own storage when nothing else shares
    /// it or when it has never been a snapshot (an object's own values, which the object then
    /// shares with its new snapshot, as it does with a fetched row), a copy otherwise.
    static func make(objectID: NSManagedObjectID, version: Int64, values: consuming SlotValues, generation: Int,
                     readTime: UInt64 = DispatchTime.now().uptimeNanoseconds) -> RowSnapshot {
        var values = values
        let row = values.row.flatMap { $0.identifier != nil ? nil : $0 } ?? values.uniqueRow()
        row.withUnsafeMutablePointerToHeader { header in
            header.pointee.identifier = objectID.value
            header.pointee.version = version
            header.pointee.generation = generation
            header.pointee.readTime = readTime
        }
        return row
    }

    deinit {
        let plan = header.plan
        withUnsafeMutablePointerToElements { words in
            cells(in: words, plan: plan).deinitialize(count: plan.referenceCount)
        }
    }

    /// The storage plan, read through the header's address: `ManagedBuffer.header` is a stored
    /// class property, whose every use is checked for exclusive access at run time, and slots
    /// are read and written one at a time.
    var plan: StoragePlan { withUnsafeMutablePointerToHeader { $0.pointee.plan } }

    /// What the row's object ID holds, read as `plan` is; nil in an object's own values until
    /// they become a snapshot.
    var identifier: ObjectIDValue? { withUnsafeMutablePointerToHeader { $0.pointee.identifier } }

    /// Whether a scalar slot holds a value its word cannot (see `Header.parked`), read as `plan` is.
    var hasParkedValues: Bool { withUnsafeMutablePointerToHeader { !$0.pointee.parked.isEmpty } }
    // A row handed to a store or a context always has its ID; only an object's own copy lacks one.
    /// What the row's object ID holds, without making the ID.
    var objectIDValue: ObjectIDValue { identifier! }
    /// The row's object ID, made anew on each call: a loop over rows reads `objectIDValue`.
    var objectID: NSManagedObjectID { NSManagedObjectID(value: objectIDValue) }
    /// The identity of the row's object, given its entity's layout.
    func identity(inHierarchyOf layout: EntityLayout) -> ObjectIdentity {
        objectIDValue.identity(inHierarchyOf: layout)
    }
    var version: Int64 { header.version }
    var generation: Int { header.generation }
    var readTime: UInt64 { header.readTime }

    /// The row's values, to read or to start an object's values from (shared until changed).
    var values: SlotValues { SlotValues(row: self) }

    /// A copy with the same values, for a change to a row that is shared: an object's own
    /// values, without an identity until they become a snapshot.
    func copy() -> RowSnapshot {
        let plan = header.plan
        var header = self.header
        header.identifier = nil
        let copy = unsafeDowncast(Self.create(minimumCapacity: plan.wordCount) { _ in header }, to: RowSnapshot.self)
        withUnsafeMutablePointerToElements { source in
            copy.withUnsafeMutablePointerToElements { target in
                target.initialize(from: source, count: plan.referenceWordOffset)
                let targetCells = UnsafeMutableRawPointer(target + plan.referenceWordOffset).bindMemory(to: Any?.self, capacity: plan.referenceCount)
                targetCells.initialize(from: cells(in: source, plan: plan), count: plan.referenceCount)
            }
        }
        return copy
    }

    @inline(__always)
    private func cells(in words: UnsafeMutablePointer<UInt64>, plan: StoragePlan) -> UnsafeMutablePointer<Any?> {
        UnsafeMutableRawPointer(words + plan.referenceWordOffset).assumingMemoryBound(to: Any?.self)
    }

    // MARK: Slots

    /// The value of a slot in key-value-coding form: a scalar becomes an `NSNumber` or a `Date` here.
    @inline(__always)
    func value(atSlot slot: Int) -> Any? {
        let plan = self.plan
        switch plan.cells[slot] {
        case .reference(let index):
            return withUnsafeMutablePointerToElements { cells(in: $0, plan: plan)[index] }
        case .scalar(let scalar, let word):
            guard let bits = self.word(word) else { return hasParkedValues ? header.parked[slot] : nil }
            return scalar.value(ofBits: bits)
        }
    }

    /// Sets a slot from a key-value-coding value; only a `SlotValues` holding the only reference calls it.
    @inline(__always)
    func setValue(_ value: Any?, atSlot slot: Int) {
        let plan = self.plan
        switch plan.cells[slot] {
        case .reference(let index):
            withUnsafeMutablePointerToElements { cells(in: $0, plan: plan)[index] = value }
        case .scalar(let scalar, let word):
            if hasParkedValues { header.parked[slot] = nil }
            guard let value else { return setWord(word, to: nil) }
            if let bits = scalar.bits(of: value) {
                setWord(word, to: bits)
            } else {
                setWord(word, to: nil)
                header.parked[slot] = value
            }
        }
    }

    /// Sets a scalar slot's word (nil for nil), dropping a value parked for it; nothing for a
    /// slot that is no scalar. Only a `SlotValues` holding the only reference calls it.
    @inline(__always)
    func setWord(atSlot slot: Int, to bits: UInt64?) {
        guard case .scalar(_, let word) = plan.cells[slot] else { return }
        if hasParkedValues { header.parked[slot] = nil }
        setWord(word, to: bits)
    }

    /// Sets a scalar slot from a number whose word gives it back exactly (see
    /// `StoragePlan.Scalar.bits(ofNumber:)`); false, with nothing set, when the slot is no scalar
    /// or the number must be parked. Only a `SlotValues` holding the only reference calls it.
    @inline(__always)
    func setWord(atSlot slot: Int, from number: NSNumber) -> Bool {
        guard case .scalar(let scalar, let word) = plan.cells[slot], let bits = scalar.bits(ofNumber: number) else { return false }
        if hasParkedValues { header.parked[slot] = nil }
        setWord(word, to: bits)
        return true
    }

    /// Sets a scalar slot's word, for a store filling a row it has just made.
    @inline(__always)
    func setScalar(_ bits: UInt64, atSlot slot: Int) {
        guard case .scalar(_, let word) = plan.cells[slot] else { return }
        setWord(word, to: bits)
    }

    /// Scalar word `word`, or nil when its null bit is set.
    @inline(__always)
    func word(_ word: Int) -> UInt64? {
        let plan = self.plan
        return withUnsafeMutablePointerToElements { words in
            let nulls = words[plan.nullWordOffset + word >> 6]
            return nulls & (1 << UInt64(word & 63)) == 0 ? words[word] : nil
        }
    }

    /// Sets scalar word `word` (nil sets its null bit); only a `SlotValues` holding the only reference calls it.
    @inline(__always)
    func setWord(_ word: Int, to bits: UInt64?) {
        let plan = self.plan
        withUnsafeMutablePointerToElements { words in
            let mask: UInt64 = 1 << UInt64(word & 63)
            if let bits {
                words[word] = bits
                words[plan.nullWordOffset + word >> 6] &= ~mask
            } else {
                words[word] = 0
                words[plan.nullWordOffset + word >> 6] |= mask
            }
        }
    }

    // MARK: Staleness

    /// Whether the row may not fulfil a fault: another save changed it since it was read, or it
    /// is older than `stalenessInterval` (which, as Apple documents, only SQLite stores apply).
    func isStale(stalenessInterval: TimeInterval) -> Bool {
        let objectID = objectIDValue
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
