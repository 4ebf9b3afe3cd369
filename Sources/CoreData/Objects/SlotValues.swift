/// The values of an object's slots: a `RowSnapshot`'s storage, shared with the row the object
/// was fetched as (or with its entity's defaults) until the first change copies it.
///
/// Reading a slot gives its key-value-coding value (`NSNumber` and `Date` for scalars, made on
/// read); the typed reads (`word(atSlot:)`) give a scalar's bits without boxing. Empty (no row)
/// while the object is a fault.
package struct SlotValues {
    private enum Storage {
        case row(RowSnapshot)
        /// The entity's default values, read from the layout until the first change makes a row.
        case defaults(EntityLayout)
    }

    private var storage: Storage?

    /// No values: a fault's.
    init() {
        storage = nil
    }

    /// The values of `row`, shared with it until changed.
    init(row: RowSnapshot) {
        storage = .row(row)
    }

    /// The default values of an entity, as a new object starts with them: no row is made
    /// until one changes (so a fault, which starts from them too, costs none).
    init(defaultsOf layout: EntityLayout) {
        storage = .defaults(layout)
    }

    /// Every slot nil.
    init(plan: StoragePlan) {
        storage = .row(Self.ownRow(plan: plan))
    }

    /// The values of an array in slot order (an entity's default values, say).
    init(_ values: some Collection<Any?>, plan: StoragePlan) {
        let row = Self.ownRow(plan: plan)
        for (slot, value) in values.enumerated() where value != nil {
            row.setValue(value, atSlot: slot)
        }
        storage = .row(row)
    }

    /// A row of values of an object's own, every slot nil: it has no identity and no read time
    /// until it becomes a snapshot (`RowSnapshot.make(objectID:version:values:generation:)`).
    private static func ownRow(plan: StoragePlan) -> RowSnapshot {
        RowSnapshot.make(plan: plan, objectID: nil, readTime: 0)
    }

    /// The row of an entity's default values, setting only the slots whose default is not nil.
    private static func row(ofDefaultsOf layout: EntityLayout) -> RowSnapshot {
        let row = ownRow(plan: layout.storagePlan)
        for slot in layout.defaultedSlots {
            row.setValue(layout.defaultValues[slot], atSlot: slot)
        }
        return row
    }

    /// The row holding the values; nil for a fault's and for untouched defaults.
    var row: RowSnapshot? {
        if case .row(let row) = storage { return row }
        return nil
    }

    var isEmpty: Bool { storage == nil }

    var count: Int {
        switch storage {
        case .row(let row): return row.plan.cells.count
        case .defaults(let layout): return layout.slots.count
        case nil: return 0
        }
    }

    var indices: Range<Int> { 0..<count }

    /// The key-value-coding value of a slot; nil for a fault's empty values.
    subscript(slot: Int) -> Any? {
        @inline(__always) get {
            switch storage {
            case .row(let row): return row.value(atSlot: slot)
            case .defaults(let layout): return layout.defaultValues[slot]
            case nil: return nil
            }
        }
        set { uniqueRow().setValue(newValue, atSlot: slot) }
    }

    /// The bits of a scalar slot, or nil when the slot is nil or holds a value its word cannot
    /// (read it through the subscript then).
    @inline(__always)
    func word(atSlot slot: Int) -> UInt64? {
        switch storage {
        case .row(let row):
            guard case .scalar(_, let word) = row.plan.cells[slot] else { return nil }
            return row.word(word)
        case .defaults(let layout):
            guard let scalar = layout.scalar(atSlot: slot), let value = layout.defaultValues[slot] else { return nil }
            return scalar.bits(of: value)
        case nil:
            return nil
        }
    }

    /// Sets the bits of a scalar slot (nil for nil).
    @inline(__always)
    mutating func setWord(_ bits: UInt64?, atSlot slot: Int) {
        uniqueRow().setWord(atSlot: slot, to: bits)
    }

    /// Sets a scalar slot from a number whose word gives it back exactly (see
    /// `StoragePlan.Scalar.bits(ofNumber:)`), without keeping the number; false, with nothing
    /// set, when the slot is no scalar or the number must be parked (set it through the
    /// subscript then).
    @inline(__always)
    mutating func setWord(atSlot slot: Int, from number: NSNumber) -> Bool {
        uniqueRow().setWord(atSlot: slot, from: number)
    }

    /// Sets a slot to its value in `other` (values of the same entity), copying a scalar's word
    /// without making its value.
    mutating func setValue(atSlot slot: Int, from other: SlotValues) {
        if let bits = other.word(atSlot: slot) {
            setWord(bits, atSlot: slot)
        } else {
            self[slot] = other[slot]
        }
    }

    /// Whether slot `slot` holds the same value here and in `other`: scalar words compare as
    /// bits, without making their values.
    func hasSameValue(atSlot slot: Int, as other: SlotValues) -> Bool {
        if let row, let otherRow = other.row, case .scalar(let scalar, let word) = row.plan.cells[slot],
           !row.hasParkedValues, !otherRow.hasParkedValues, otherRow.plan === row.plan {
            guard let bits = row.word(word), let otherBits = otherRow.word(word) else { return row.word(word) == otherRow.word(word) }
            guard scalar.isFloatingPoint else { return bits == otherBits }
            let value = Double(bitPattern: bits), otherValue = Double(bitPattern: otherBits)
            return value == otherValue || (value.isNaN && otherValue.isNaN)
        }
        return ValueComparison.isEqual(self[slot], other[slot])
    }

    /// The row, made from the defaults or copied first when another holder shares it; only the
    /// caller holds the result.
    mutating func uniqueRow() -> RowSnapshot {
        switch storage {
        case .row(var row):
            storage = nil
            if !isKnownUniquelyReferenced(&row) { row = row.copy() }
            storage = .row(row)
            return row
        case .defaults(let layout):
            let row = Self.row(ofDefaultsOf: layout)
            storage = .row(row)
            return row
        case nil:
            preconditionFailure("The values of a fault cannot be changed.")
        }
    }
}
