import Testing
@testable import CoreData

/// `[c]` and `[d]` folding (spec §4.7) and the string operators built on it.
@Suite("String folding")
struct StringFoldingTests {
    private func fold(_ string: String, _ options: NSComparisonPredicate.Options) -> String {
        StringFolding.fold(string, options: options)
    }

    @Test func caseFoldingIsFullUnicodeFolding() {
        #expect(fold("Straße", .caseInsensitive) == "strasse")
        #expect(fold("ǅ", .caseInsensitive) == "ǆ")
        #expect(fold("ΣΊΣΥΦΟΣ", .caseInsensitive) == fold("σίσυφος", .caseInsensitive))
        #expect(fold("Émile", .caseInsensitive) == "émile")
    }

    @Test func diacriticFoldingStripsMarksFromLatinGreekAndCyrillicOnly() {
        #expect(fold("naïve café", .diacriticInsensitive) == "naive cafe")
        #expect(fold("Ünïcödé", .diacriticInsensitive) == "Unicode")
        #expect(fold("ά", .diacriticInsensitive) == "α")
        #expect(fold("й", .diacriticInsensitive) == "и")
        #expect(fold("\u{5D1}\u{5BC}", .diacriticInsensitive) == "\u{5D1}\u{5BC}", "Hebrew points are kept")
        #expect(fold("が", .diacriticInsensitive) == "が", "kana voicing marks are kept")
    }

    @Test func bothOptionsTogetherAndCanonicalEquivalence() {
        #expect(fold("ÉCOLE", [.caseInsensitive, .diacriticInsensitive]) == "ecole")
        #expect(fold("e\u{301}", .caseInsensitive) == fold("\u{e9}", .caseInsensitive))
        #expect(fold("e\u{301}", .caseInsensitive).unicodeScalars.count == 1, "folded strings are precomposed")
    }

    @Test func normalizedAndNoOptionsLeaveTheStringAlone() {
        #expect(fold("Straße", []) == "Straße")
        #expect(fold("Straße", [.normalized, .caseInsensitive]) == "Straße")
        #expect(fold("e\u{301}", []).unicodeScalars.count == 2)
    }

    @Test func stringOperatorsUnderOptions() {
        #expect(StringOperators.isEqual("STRASSE", "straße", options: .caseInsensitive))
        #expect(!StringOperators.isEqual("STRASSE", "straße", options: []))
        #expect(StringOperators.hasPrefix("Bob", "Bó", options: .diacriticInsensitive))
        #expect(StringOperators.hasSuffix("Zürich", "RICH", options: [.caseInsensitive, .diacriticInsensitive]))
        #expect(StringOperators.contains("Charlie", "LÍ", options: [.caseInsensitive, .diacriticInsensitive]))
        #expect(!StringOperators.contains("Charlie", "", options: .caseInsensitive))
        #expect(StringOperators.like("Crème Brûlée", pattern: "creme*lee", options: [.caseInsensitive, .diacriticInsensitive]))
        #expect(StringOperators.compare("b", "A", options: .caseInsensitive) == .orderedDescending)
        #expect(StringOperators.compare("b", "A", options: []) == .orderedDescending)
        #expect(StringOperators.compare("B", "a", options: []) == .orderedAscending)
        #expect(StringOperators.compare("B", "a", options: .caseInsensitive) == .orderedDescending)
        #expect(StringOperators.compare("B", "a", options: .normalized) == .orderedAscending)
        #expect(StringOperators.matches("ÀBC", regularExpression: "abc", options: [.caseInsensitive, .diacriticInsensitive]))
    }

    @Test func asciiFoldsAsUnicodeFoldingDoes() {
        let ascii = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        #expect(StringFolding.fold(ascii, caseInsensitive: true, diacriticInsensitive: true) == ascii.folding(options: .caseInsensitive, locale: nil))
        #expect(StringFolding.fold(ascii, caseInsensitive: false, diacriticInsensitive: true) == ascii)
        #expect(StringFolding.fold("ABC\u{212A}", caseInsensitive: true, diacriticInsensitive: false) == "abck", "the Kelvin sign is not ASCII and folds to k")
    }

    @Test("LIKE wildcards", arguments: [
        ("abc", "a*c", true), ("abc", "a?c", true), ("ac", "a?c", false), ("ac", "a*c", true), ("", "*", true),
        ("", "?", false), ("abc", "*b*", true), ("abc", "*d*", false), ("aaab", "*a?b", true), ("abcbc", "*bc", true),
        ("a*c", "a*c", true), ("ab", "abc", false), ("abc", "ab", false), ("mississippi", "m*iss*ppi", true),
    ])
    func wildcards(string: String, pattern: String, expected: Bool) {
        #expect(WildcardPattern.matches(string, pattern: pattern) == expected)
    }
}
