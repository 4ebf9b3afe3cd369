extension NSComparisonPredicate {
    /// How a comparison predicate compares strings.
    ///
    /// The system supports these options for `LIKE`, as well as all of the equality and comparison
    /// operators, and for the string operators.
    public struct Options: OptionSet, Hashable, Sendable {
        /// The option bits, with Apple's values.
        public let rawValue: UInt

        /// Creates options from their raw bits.
        public init(rawValue: UInt) {
            self.rawValue = rawValue
        }

        /// A case-insensitive comparison, written `[c]`: `"NeXT" LIKE[c] "next"`.
        public static let caseInsensitive = Options(rawValue: 1)

        /// A diacritic-insensitive comparison, written `[d]`: `"naïve" LIKE[d] "naive"`.
        public static let diacriticInsensitive = Options(rawValue: 2)

        /// Indicates that the strings have been preprocessed (normalised), written `[n]`; they are
        /// then compared literally, ignoring `[c]` and `[d]`.
        public static let normalized = Options(rawValue: 4)

        /// A comparison that follows the current locale, written `[l]`. Apple exposes this bit only
        /// to Objective-C (`NSLocaleSensitivePredicateOption`), so it is not public here either.
        static let localeSensitive = Options(rawValue: 8)
    }
}
