/// A number read from any of the representations predicates meet (`NSNumber`, Swift integers and
/// floating-point types, `Bool`, `Decimal`), compared numerically across them as `NSNumber` does.
enum PredicateNumber {
    /// An integer, a Boolean (0 or 1), or an unsigned value that fits in 64 signed bits.
    case integer(Int64)

    /// Any other number.
    case floating(Double)

    /// The number `value` holds, or nil when it is not a number. Strings are never numbers.
    init?(_ value: Any) {
        if let number = value as? NSNumber {
            self.init(number)
        } else if let number = value as? CGFloat {
            self = .floating(Double(number))
        } else {
            return nil
        }
    }

    private init(_ number: NSNumber) {
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "f"), UInt8(ascii: "d"):
            self = .floating(number.nearestDoubleValue)
        case UInt8(ascii: "Q") where number.uint64Value > UInt64(Int64.max):
            self = .floating(number.doubleValue)
        default:
            self = .integer(number.int64Value)
        }
    }

    /// The number as a `Double`, possibly rounded.
    var doubleValue: Double {
        switch self {
        case .integer(let value): Double(value)
        case .floating(let value): value
        }
    }

    /// The number as an exact integer, or nil when it has a fractional part or is out of range.
    var exactInteger: Int64? {
        switch self {
        case .integer(let value): value
        case .floating(let value): Int64(exactly: value)
        }
    }

    /// The number as an `NSNumber` of the matching kind.
    var nsNumber: NSNumber {
        switch self {
        case .integer(let value): NSNumber(value: value)
        case .floating(let value): NSNumber(value: value)
        }
    }

    /// Orders two numbers by value; integers are compared exactly, anything else as doubles.
    /// NaN equals NaN and orders before every other number, so that the order is total.
    func compare(_ other: PredicateNumber) -> ComparisonResult {
        if case .integer(let lhs) = self, case .integer(let rhs) = other {
            return ComparisonResult(ordering: lhs, rhs)
        }
        switch (doubleValue.isNaN, other.doubleValue.isNaN) {
        case (true, true): return .orderedSame
        case (true, false): return .orderedAscending
        case (false, true): return .orderedDescending
        case (false, false): return ComparisonResult(ordering: doubleValue, other.doubleValue)
        }
    }
}
