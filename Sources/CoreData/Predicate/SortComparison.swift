/// The comparison methods a sort descriptor can name by selector, each implemented once: sorting
/// in memory calls `order(_:_:)`, and the SQLite store orders by SQLite's byte order for
/// `compare:` and registers `compare(_:_:)` of each other method as a collation
/// (`SQLiteFunctions`), so that a fetch orders strings exactly as memory does.
///
/// `compare:` orders strings by their UTF-8 bytes, as Apple's SQLite store does
/// (`ValueComparison.byteOrder(_:_:)`, which string comparisons in predicates use too); the other
/// methods are Foundation's `String` methods of the same names. The localized ones use
/// `Locale.current`, as on Apple platforms; `localizedStandardCompare:` is Foundation's Finder-like
/// order (case-insensitive, numbers by value, so `file2` before `file10`). Values other than
/// strings are ordered as `compare:` orders them, whatever the method, because only strings
/// implement the other methods and SQLite applies a collation only to text.
enum SortComparison: Int, CaseIterable {
    case compare
    case caseInsensitiveCompare
    case localizedCompare
    case localizedCaseInsensitiveCompare
    case localizedStandardCompare

    /// The method a selector names, or nil when sort descriptors do not support it.
    init?(_ selector: Selector) {
        guard let comparison = Self.allCases.first(where: { $0.selector == selector }) else { return nil }
        self = comparison
    }

    /// The selector that names the method.
    var selector: Selector {
        switch self {
        case .compare: "compare:"
        case .caseInsensitiveCompare: "caseInsensitiveCompare:"
        case .localizedCompare: "localizedCompare:"
        case .localizedCaseInsensitiveCompare: "localizedCaseInsensitiveCompare:"
        case .localizedStandardCompare: "localizedStandardCompare:"
        }
    }

    /// The name of the SQLite collation that runs `compare(_:_:)`, or nil for `compare:`, which
    /// orders strings by their bytes, as SQLite's own BINARY collation does.
    var collationName: String? {
        switch self {
        case .compare: nil
        case .caseInsensitiveCompare: "cd_case_insensitive_compare"
        case .localizedCompare: "cd_localized_compare"
        case .localizedCaseInsensitiveCompare: "cd_localized_case_insensitive_compare"
        case .localizedStandardCompare: "cd_localized_standard_compare"
        }
    }

    /// The order of two strings by the method.
    func compare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        switch self {
        case .compare: ValueComparison.byteOrder(lhs, rhs)
        case .caseInsensitiveCompare: lhs.caseInsensitiveCompare(rhs)
        case .localizedCompare: lhs.localizedCompare(rhs)
        case .localizedCaseInsensitiveCompare: lhs.localizedCaseInsensitiveCompare(rhs)
        case .localizedStandardCompare: lhs.localizedStandardCompare(rhs)
        }
    }

    /// The order of two strings given as UTF-8 bytes (as SQLite hands them to a collation).
    func compare(utf8 lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> ComparisonResult {
        compare(String(decoding: lhs, as: UTF8.self), String(decoding: rhs, as: UTF8.self))
    }

    /// The ascending order of two values: nil first, strings by the method, other values as
    /// `ValueComparison.sortOrder(_:_:)` orders them.
    func order(_ lhs: Any?, _ rhs: Any?) -> ComparisonResult {
        if case .string(let lhs) = PredicateValueKind(lhs), case .string(let rhs) = PredicateValueKind(rhs) {
            return compare(lhs, rhs)
        }
        return ValueComparison.sortOrder(lhs, rhs)
    }
}
