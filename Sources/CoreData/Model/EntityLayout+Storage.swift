/// Where each slot of an entity's rows lives in a row's storage (see `RowSnapshot`).
///
/// Scalars (integers, Booleans, floats, doubles and dates) are 64-bit words with a null bit
/// each, so that reading them from SQLite or through a generated accessor boxes nothing;
/// everything else (strings, data, UUIDs, URLs, decimals, transformable values, lazily loaded
/// external data, to-one destinations and to-many sets) is an `Any?` cell, which holds those
/// values inline without a box of its own.
// Built once with the entity's layout and never mutated afterwards, so it is read from any thread.
final class StoragePlan: @unchecked Sendable {
    /// How a scalar slot's word encodes its value.
    enum Scalar: UInt8 {
        /// An `Int64` (integer 16, 32 and 64 attributes; the attribute's width applies when the
        /// value is returned and when it is saved).
        case integer16, integer32, integer64
        /// 0 or 1 (any other integer a program set is kept as it is).
        case boolean
        /// The bits of a `Double` holding the `Float`.
        case float
        /// The bits of a `Double`.
        case double
        /// The bits of the date's `timeIntervalSinceReferenceDate`.
        case date

        init?(_ type: NSAttributeType) {
            switch type {
            case .integer16AttributeType: self = .integer16
            case .integer32AttributeType: self = .integer32
            case .integer64AttributeType: self = .integer64
            case .booleanAttributeType: self = .boolean
            case .floatAttributeType: self = .float
            case .doubleAttributeType: self = .double
            case .dateAttributeType: self = .date
            default: return nil
            }
        }

        /// Whether the word holds the bits of a floating-point number rather than an integer.
        var isFloatingPoint: Bool {
            switch self {
            case .float, .double, .date: return true
            case .integer16, .integer32, .integer64, .boolean: return false
            }
        }
    }

    /// Where one slot lives.
    enum Cell: Equatable {
        /// Word `word` of the scalar words, and null bit `word`.
        case scalar(Scalar, word: Int)
        /// `Any?` cell `index` of the reference cells.
        case reference(index: Int)
    }

    /// Where each slot lives, by slot index.
    let cells: ContiguousArray<Cell>
    /// The number of scalar words (one per scalar slot).
    let scalarCount: Int
    /// The number of `Any?` cells.
    let referenceCount: Int
    /// The number of 64-bit words holding the scalars' null bits.
    let nullWordCount: Int

    /// The 64-bit words a cell takes, rounded up.
    static let wordsPerReference = (MemoryLayout<Any?>.stride + 7) / 8

    init(attributeTypes: [NSAttributeType], tags: [EntityLayout.SlotTag], lazySlots: [Bool]) {
        var cells = ContiguousArray<Cell>()
        cells.reserveCapacity(tags.count)
        var scalars = 0
        var references = 0
        for (slot, tag) in tags.enumerated() {
            if tag == .attribute, !lazySlots[slot], let scalar = Scalar(attributeTypes[slot]) {
                cells.append(.scalar(scalar, word: scalars))
                scalars += 1
            } else {
                cells.append(.reference(index: references))
                references += 1
            }
        }
        self.cells = cells
        self.scalarCount = scalars
        self.referenceCount = references
        self.nullWordCount = (scalars + 63) / 64
    }

    /// The word where the null bits start.
    var nullWordOffset: Int { scalarCount }

    /// The word where the reference cells start.
    var referenceWordOffset: Int { scalarCount + nullWordCount }

    /// The number of 64-bit words a row's storage takes after its header.
    var wordCount: Int { referenceWordOffset + referenceCount * Self.wordsPerReference }
}

extension EntityLayout {
    /// The scalar kind of a slot, or nil when the slot is a reference cell.
    @inline(__always)
    func scalar(atSlot slot: Int) -> StoragePlan.Scalar? {
        if case .scalar(let scalar, _) = storagePlan.cells[slot] { return scalar }
        return nil
    }
}

// The conversions between a scalar slot's word and the values key-value coding hands out and
// takes. A value goes into the word only when reading the word gives it back exactly (so
// `value(forKey:)` returns what was set, as Apple's object storage does); anything else is
// parked beside the words (see `RowSnapshot.Header.parked`).
extension StoragePlan.Scalar {
    /// The key-value-coding value of a word: an `NSNumber` of the attribute's width (a wider one
    /// for a value the width cannot hold, which only a program can set), or a `Date`.
    @inline(__always)
    func value(ofBits bits: UInt64) -> Any {
        switch self {
        case .integer16:
            let value = Int64(bitPattern: bits)
            return Int16(exactly: value).map { NSNumber(value: $0) } ?? NSNumber(value: value)
        case .integer32:
            let value = Int64(bitPattern: bits)
            return Int32(exactly: value).map { NSNumber(value: $0) } ?? NSNumber(value: value)
        case .integer64:
            return NSNumber(value: Int64(bitPattern: bits))
        case .boolean:
            let value = Int64(bitPattern: bits)
            return value == 0 || value == 1 ? NSNumber(value: value == 1) : NSNumber(value: value)
        case .float:
            return NSNumber(value: Float(Double(bitPattern: bits)))
        case .double:
            return NSNumber(value: Double(bitPattern: bits))
        case .date:
            return Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits))
        }
    }

    /// The word of a value, or nil when the word cannot give the value back exactly.
    @inline(__always)
    func bits(of value: Any) -> UInt64? {
        if case .date = self {
            return (value as? Date).map { $0.timeIntervalSinceReferenceDate.bitPattern }
        }
        guard let number = value as? NSNumber else { return nil }
        return bits(ofNumber: number)
    }

    /// The word of a number, or nil when the word cannot give the number back exactly (or the
    /// slot holds dates).
    @inline(__always)
    func bits(ofNumber number: NSNumber) -> UInt64? {
        guard !(number is NSDecimalNumber) else { return nil }
        let type = number.objCType.pointee
        switch self {
        case .integer16, .integer32, .integer64, .boolean:
            guard Self.isInteger(type) else { return nil }
            if Self.isUnsigned(type) && number.uint64Value > UInt64(Int64.max) { return nil }
            return UInt64(bitPattern: number.int64Value)
        case .float:
            return type == UInt8(ascii: "f") ? Double(number.floatValue).bitPattern : nil
        case .double:
            return type == UInt8(ascii: "d") ? number.doubleValue.bitPattern : nil
        case .date:
            return nil
        }
    }

    private static func isInteger(_ type: CChar) -> Bool {
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "c"), UInt8(ascii: "C"), UInt8(ascii: "s"), UInt8(ascii: "S"), UInt8(ascii: "i"), UInt8(ascii: "I"),
             UInt8(ascii: "l"), UInt8(ascii: "L"), UInt8(ascii: "q"), UInt8(ascii: "Q"), UInt8(ascii: "B"):
            return true
        default:
            return false
        }
    }

    private static func isUnsigned(_ type: CChar) -> Bool {
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "C"), UInt8(ascii: "S"), UInt8(ascii: "I"), UInt8(ascii: "L"), UInt8(ascii: "Q"): return true
        default: return false
        }
    }
}
