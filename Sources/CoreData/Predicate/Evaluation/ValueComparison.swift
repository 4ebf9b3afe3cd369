/// Equality and ordering of predicate values, shared by the evaluator, `NSSortDescriptor` and the
/// tree's `Hashable` conformance so that all three agree.
///
/// The rules are Foundation's (spec §4.2–§4.4): nil and `NSNull` are the same value; numbers compare
/// numerically whatever their type (`1 == 1.0 == true`); strings are equal only when their UTF-16
/// code units are (`isEqual:`); dates compare by instant; collections compare element by element,
/// dictionaries keyed by strings key by key; other values by `==` when hashable, by identity
/// otherwise. Strings are ordered by their UTF-8
/// bytes, as the SQLite store orders them, rather than by Foundation's `compare:`.
enum ValueComparison {
    /// Whether two values are equal the way `isEqual:` decides.
    static func isEqual(_ lhs: Any?, _ rhs: Any?) -> Bool {
        switch (PredicateValueKind(lhs), PredicateValueKind(rhs)) {
        case (.null, .null):
            true
        case (.number(let lhs), .number(let rhs)):
            lhs.compare(rhs) == .orderedSame
        case (.string(let lhs), .string(let rhs)):
            lhs.utf16.elementsEqual(rhs.utf16)
        case (.date(let lhs), .date(let rhs)):
            lhs == rhs
        case (.data(let lhs), .data(let rhs)):
            lhs == rhs
        case (.other(let lhs), .other(let rhs)):
            otherValuesEqual(lhs, rhs)
        default:
            false
        }
    }

    /// The order of two values as `compare:` gives it, or nil when they cannot be ordered (nil
    /// operands, or values of different kinds such as a string and a number).
    static func order(_ lhs: Any?, _ rhs: Any?) -> ComparisonResult? {
        switch (PredicateValueKind(lhs), PredicateValueKind(rhs)) {
        case (.number(let lhs), .number(let rhs)):
            lhs.compare(rhs)
        case (.string(let lhs), .string(let rhs)):
            byteOrder(lhs, rhs)
        case (.date(let lhs), .date(let rhs)):
            lhs.compare(rhs)
        default:
            nil
        }
    }

    /// The order of two strings' UTF-8 bytes, which is the order of their Unicode scalars.
    ///
    /// It is how SQLite's BINARY collation compares text, so that the SQLite store compares and
    /// sorts strings in SQL (where an index serves them) as memory does. It differs from
    /// Foundation's `compare(_:)`, which puts an accented letter beside its base letter (`é`
    /// before `f`, here after `z`), orders canonically equivalent spellings as one, and orders
    /// UTF-16 code units beyond U+FFFF differently.
    static func byteOrder(_ lhs: String, _ rhs: String) -> ComparisonResult {
        var lhs = lhs, rhs = rhs
        return lhs.withUTF8 { lhs in
            rhs.withUTF8 { rhs in
                let common = min(lhs.count, rhs.count)
                let order = common == 0 ? 0 : memcmp(lhs.baseAddress!, rhs.baseAddress!, common)
                if order != 0 { return order < 0 ? .orderedAscending : .orderedDescending }
                return ComparisonResult(ordering: lhs.count, rhs.count)
            }
        }
    }

    /// The order sort descriptors use: nil before everything, then `order(_:_:)`; values that
    /// cannot be ordered keep their relative position.
    static func sortOrder(_ lhs: Any?, _ rhs: Any?) -> ComparisonResult {
        switch (ValueUnwrapping.isNull(lhs), ValueUnwrapping.isNull(rhs)) {
        case (true, true): .orderedSame
        case (true, false): .orderedAscending
        case (false, true): .orderedDescending
        case (false, false): order(lhs, rhs) ?? .orderedSame
        }
    }

    /// Feeds a value to `hasher` so that values `isEqual(_:_:)` calls equal hash alike.
    static func hash(_ value: Any?, into hasher: inout Hasher) {
        switch PredicateValueKind(value) {
        case .null:
            hasher.combine(0)
        case .number(let number):
            let double = number.doubleValue
            hasher.combine(double.isNaN ? .nan : double)
        case .string(let string):
            hasher.combine(string)
        case .date(let date):
            hasher.combine(date)
        case .data(let data):
            hasher.combine(data)
        case .other(let value):
            hasher.combine(CollectionElements.elements(of: value)?.count ?? -1)
        }
    }

    private static func otherValuesEqual(_ lhs: Any, _ rhs: Any) -> Bool {
        if let lhs = lhs as? AnyHashable, let rhs = rhs as? AnyHashable, lhs == rhs {
            return true
        }
        if let lhs = lhs as? ObjectReference, let rhs = rhs as? ObjectReference {
            return lhs.referencedObject == rhs.referencedObject
        }
        if let lhs = lhs as? [String: Any], let rhs = rhs as? [String: Any] {
            // A composite attribute's value, whose elements compare as values do.
            return lhs.count == rhs.count && lhs.allSatisfy { key, value in rhs[key].map { isEqual(value, $0) } ?? false }
        }
        if let lhsElements = CollectionElements.elements(of: lhs), let rhsElements = CollectionElements.elements(of: rhs) {
            return collectionsEqual(lhsElements, rhsElements, ordered: isOrdered(lhs) && isOrdered(rhs))
        }
        if type(of: lhs) is AnyClass, type(of: rhs) is AnyClass {
            return (lhs as AnyObject) === (rhs as AnyObject)
        }
        return false
    }

    private static func isOrdered(_ collection: Any) -> Bool {
        collection is NSOrderedSet || collection is [Any]
    }

    private static func collectionsEqual(_ lhs: [Any], _ rhs: [Any], ordered: Bool) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if ordered {
            return zip(lhs, rhs).allSatisfy { isEqual($0, $1) }
        }
        return lhs.allSatisfy { element in rhs.contains { isEqual(element, $0) } }
    }
}
