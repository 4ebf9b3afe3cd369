/// The string folding behind the `[c]` and `[d]` comparison options (spec §4.7).
///
/// Everything that compares strings under options goes through `fold`: the in-memory evaluator and
/// the SQLite store's custom SQL functions, so that a fetch and an in-memory filter agree on every
/// string.
enum StringFolding {
    /// The key two strings are compared by under `options`.
    ///
    /// With `[n]` (the caller promises pre-normalised strings), or with neither `[c]` nor `[d]`, the
    /// string is returned unchanged and compared literally.
    static func fold(_ string: String, options: NSComparisonPredicate.Options) -> String {
        guard !options.contains(.normalized) else { return string }
        return fold(
            string,
            caseInsensitive: options.contains(.caseInsensitive),
            diacriticInsensitive: options.contains(.diacriticInsensitive)
        )
    }

    /// Folds `string`: canonical decomposition, then (for `diacriticInsensitive`) removal of the
    /// combining marks on Latin, Greek and Cyrillic letters, then (for `caseInsensitive`) full
    /// Unicode case folding (`ß` → `ss`), then canonical composition.
    ///
    /// Marks on letters of other scripts are kept, as CoreFoundation keeps them. The composition at
    /// the end makes canonically equivalent strings fold to the same scalars.
    static func fold(_ string: String, caseInsensitive: Bool, diacriticInsensitive: Bool) -> String {
        guard caseInsensitive || diacriticInsensitive else { return string }
        if string.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII has no marks and no compositions, and folds case by A-Z alone: the common case,
            // which SQL functions meet once per row, skips Unicode normalisation.
            return caseInsensitive ? asciiLowercased(string) : string
        }
        var folded = string.decomposedStringWithCanonicalMapping
        if diacriticInsensitive {
            folded = removingFoldableMarks(from: folded)
        }
        if caseInsensitive {
            folded = folded.folding(options: .caseInsensitive, locale: nil)
        }
        return folded.precomposedStringWithCanonicalMapping
    }

    private static func asciiLowercased(_ string: String) -> String {
        guard string.utf8.contains(where: { (0x41...0x5A).contains($0) }) else { return string }
        return String(decoding: string.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// Letters below this scalar (Latin, Greek, Cyrillic) lose their combining marks under `[d]`.
    private static let foldableBaseLimit: UInt32 = 0x0510

    private static func removingFoldableMarks(from decomposed: String) -> String {
        var result = String.UnicodeScalarView()
        var baseIsFoldable = false
        for scalar in decomposed.unicodeScalars {
            if scalar.properties.isGraphemeExtend {
                if baseIsFoldable { continue }
            } else {
                baseIsFoldable = scalar.value < foldableBaseLimit
            }
            result.append(scalar)
        }
        return String(result)
    }
}
