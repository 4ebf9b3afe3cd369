import Foundation

/// A value to sort by, sorted into the kinds that compare without dynamic casts: a fetched
/// results controller keeps one per sort descriptor for every row, and compares them at every
/// step of its binary searches.
enum SortKeyValue {
    /// nil or `NSNull`.
    case null
    /// An integer number (of any width).
    case integer(Int64)
    /// A floating-point number.
    case double(Double)
    case string(String)
    case date(Date)
    /// Anything else, compared as `SortComparison.order(_:_:)` compares it.
    case other(Any)

    /// The sort-key form of a value as objects hold it.
    init(_ value: Any?) {
        switch PredicateValueKind(value) {
        case .null: self = .null
        case .number(.integer(let integer)): self = .integer(integer)
        case .number(.floating(let double)): self = .double(double)
        case .string(let string): self = .string(string)
        case .date(let date): self = .date(date)
        case .data(let data): self = .other(data)
        case .other(let other): self = .other(other)
        }
    }

    /// The value as objects hold it (numbers as `NSNumber`s).
    var objectValue: Any? {
        switch self {
        case .null: nil
        case .integer(let integer): NSNumber(value: integer)
        case .double(let double): NSNumber(value: double)
        case .string(let string): string
        case .date(let date): date
        case .other(let value): value
        }
    }

    /// The ascending order of two values by a comparison method, as
    /// `SortComparison.order(_:_:)` gives it for their object values.
    func order(_ other: SortKeyValue, by comparison: SortComparison) -> ComparisonResult {
        switch (self, other) {
        case (.null, .null): .orderedSame
        case (.null, _): .orderedAscending
        case (_, .null): .orderedDescending
        case (.string(let lhs), .string(let rhs)): comparison.compare(lhs, rhs)
        case (.integer(let lhs), .integer(let rhs)): ComparisonResult(ordering: lhs, rhs)
        case (.integer(let lhs), .double(let rhs)): PredicateNumber.integer(lhs).compare(.floating(rhs))
        case (.double(let lhs), .integer(let rhs)): PredicateNumber.floating(lhs).compare(.integer(rhs))
        case (.double(let lhs), .double(let rhs)): PredicateNumber.floating(lhs).compare(.floating(rhs))
        case (.date(let lhs), .date(let rhs)): lhs.compare(rhs)
        default: comparison.order(objectValue, other.objectValue)
        }
    }
}
