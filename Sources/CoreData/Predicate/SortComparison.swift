/// The comparison methods a sort descriptor can name by selector, each implemented once: sorting
/// in memory calls `order(_:_:)`, and the SQLite store registers `compare(_:_:)` of each as a
/// collation (`SQLiteFunctions`), so that a fetch orders strings exactly as memory does.
///
/// The methods are Foundation's `String` methods of the same names. The localized ones use
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

    /// The name of the SQLite collation that runs `compare(_:_:)`.
    var collationName: String {
        switch self {
        case .compare: "cd_compare"
        case .caseInsensitiveCompare: "cd_case_insensitive_compare"
        case .localizedCompare: "cd_localized_compare"
        case .localizedCaseInsensitiveCompare: "cd_localized_case_insensitive_compare"
        case .localizedStandardCompare: "cd_localized_standard_compare"
        }
    }

    /// The order of two strings by the method.
    func compare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        if self == .compare, let order = Self.asciiOrder(lhs, rhs) { return order }
        return switch self {
        case .compare: lhs.compare(rhs)
        case .caseInsensitiveCompare: lhs.caseInsensitiveCompare(rhs)
        case .localizedCompare: lhs.localizedCompare(rhs)
        case .localizedCaseInsensitiveCompare: lhs.localizedCaseInsensitiveCompare(rhs)
        case .localizedStandardCompare: lhs.localizedStandardCompare(rhs)
        }
    }

    /// The order of two strings given as UTF-8 bytes (as SQLite hands them to a collation).
    func compare(utf8 lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> ComparisonResult {
        if self == .compare, let order = Self.asciiOrder(lhs, rhs) { return order }
        return compare(String(decoding: lhs, as: UTF8.self), String(decoding: rhs, as: UTF8.self))
    }

    /// `compare:` of two strings decided by ASCII characters: the order of their bytes, which is
    /// the order of their UTF-16 code units, and so Foundation's. Nil when a non-ASCII
    /// character comes before the first difference, or right after it (a combining mark there
    /// could join the differing character into another). Decoding and comparing through
    /// Foundation costs far more than the fetch that sorts them.
    private static func asciiOrder(_ lhs: String, _ rhs: String) -> ComparisonResult? {
        var lhs = lhs, rhs = rhs
        return lhs.withUTF8 { lhs in rhs.withUTF8 { rhs in asciiOrder(UnsafeRawBufferPointer(lhs), UnsafeRawBufferPointer(rhs)) } }
    }

    private static func asciiOrder(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> ComparisonResult? {
        let common = min(lhs.count, rhs.count)
        var index = 0
        while index < common {
            let left = lhs[index], right = rhs[index]
            guard left | right < 0x80 else { return nil }
            if left != right {
                guard isASCII(lhs, at: index + 1), isASCII(rhs, at: index + 1) else { return nil }
                return left < right ? .orderedAscending : .orderedDescending
            }
            index += 1
        }
        if lhs.count == rhs.count { return .orderedSame }
        guard isASCII(lhs, at: common), isASCII(rhs, at: common) else { return nil }
        return lhs.count < rhs.count ? .orderedAscending : .orderedDescending
    }

    /// Whether the byte at `index` is ASCII, or past the end.
    private static func isASCII(_ bytes: UnsafeRawBufferPointer, at index: Int) -> Bool {
        index >= bytes.count || bytes[index] < 0x80
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
