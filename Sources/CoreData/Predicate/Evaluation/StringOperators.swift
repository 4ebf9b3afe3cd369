/// The string semantics of comparison predicates under their options (spec §4.3–§4.5, §4.7).
///
/// Without options strings are compared literally (`isEqual:`, `hasPrefix:`); `[c]` and `[d]` fold
/// both sides with `StringFolding` first; `[n]` promises normalised input and compares literally;
/// `[l]` makes ordering follow the current locale. The SQLite store's custom functions call these
/// same functions, so fetches and in-memory filtering agree.
enum StringOperators {
    /// `==` on two strings.
    static func isEqual(_ lhs: String, _ rhs: String, options: NSComparisonPredicate.Options) -> Bool {
        let (lhs, rhs) = folded(lhs, rhs, options: options)
        return lhs.utf16.elementsEqual(rhs.utf16)
    }

    /// `<`, `<=`, `>`, `>=` on two strings.
    ///
    /// Without options, and with `[n]`, which compares literally, strings are in the order of
    /// their UTF-8 bytes (`ValueComparison.byteOrder(_:_:)`), as the SQLite store compares them
    /// in SQL. `[c]` and `[d]` fold both sides and compare them as Foundation's `compare(_:)`
    /// does, which puts an accented letter after its base letter; `[l]` follows the current locale.
    static func compare(_ lhs: String, _ rhs: String, options: NSComparisonPredicate.Options) -> ComparisonResult {
        if options.isEmpty || options.contains(.normalized) {
            return ValueComparison.byteOrder(lhs, rhs)
        }
        let (lhs, rhs) = folded(lhs, rhs, options: options)
        if options.contains(.localeSensitive) {
            return lhs.compare(rhs, locale: Locale.current)
        }
        return lhs.compare(rhs)
    }

    /// `BEGINSWITH`; an empty prefix never matches.
    static func hasPrefix(_ string: String, _ prefix: String, options: NSComparisonPredicate.Options) -> Bool {
        guard !prefix.isEmpty else { return false }
        let (string, prefix) = folded(string, prefix, options: options)
        return string.utf16.starts(with: prefix.utf16)
    }

    /// `ENDSWITH`; an empty suffix never matches.
    static func hasSuffix(_ string: String, _ suffix: String, options: NSComparisonPredicate.Options) -> Bool {
        guard !suffix.isEmpty else { return false }
        let (string, suffix) = folded(string, suffix, options: options)
        return string.utf16.reversed().starts(with: suffix.utf16.reversed())
    }

    /// `CONTAINS` on a string (and `IN` with a string on the right); an empty needle never matches.
    static func contains(_ string: String, _ needle: String, options: NSComparisonPredicate.Options) -> Bool {
        guard !needle.isEmpty else { return false }
        let (string, needle) = folded(string, needle, options: options)
        return string.range(of: needle, options: .literal) != nil
    }

    /// `LIKE`: `*` and `?` wildcards over the whole string.
    static func like(_ string: String, pattern: String, options: NSComparisonPredicate.Options) -> Bool {
        let (string, pattern) = folded(string, pattern, options: options)
        return WildcardPattern.matches(string, pattern: pattern)
    }

    /// `MATCHES`: an ICU regular expression that must match the entire string.
    ///
    /// `[c]` makes the expression case-insensitive; `[d]` folds diacritics out of both the string
    /// and the pattern. An invalid pattern matches nothing.
    static func matches(_ string: String, regularExpression pattern: String, options: NSComparisonPredicate.Options) -> Bool {
        var string = string
        var pattern = pattern
        if options.contains(.diacriticInsensitive) && !options.contains(.normalized) {
            string = StringFolding.fold(string, caseInsensitive: false, diacriticInsensitive: true)
            pattern = StringFolding.fold(pattern, caseInsensitive: false, diacriticInsensitive: true)
        }
        let caseInsensitive = options.contains(.caseInsensitive) && !options.contains(.normalized)
        guard let expression = RegularExpressionCache.shared.wholeStringExpression(pattern, caseInsensitive: caseInsensitive) else {
            return false
        }
        let range = NSRange(string.startIndex..., in: string)
        return expression.firstMatch(in: string, options: [], range: range) != nil
    }

    private static func folded(_ lhs: String, _ rhs: String, options: NSComparisonPredicate.Options) -> (String, String) {
        (StringFolding.fold(lhs, options: options), StringFolding.fold(rhs, options: options))
    }
}
