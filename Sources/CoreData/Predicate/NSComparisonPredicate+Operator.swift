extension NSComparisonPredicate {
    /// The comparison a comparison predicate performs.
    ///
    /// The raw values are Apple's, so they can be stored and exchanged with Apple platforms.
    public enum Operator: UInt, Sendable {
        /// `lhs < rhs`.
        case lessThan = 0
        /// `lhs <= rhs` (also written `=<`).
        case lessThanOrEqualTo = 1
        /// `lhs > rhs`.
        case greaterThan = 2
        /// `lhs >= rhs` (also written `=>`).
        case greaterThanOrEqualTo = 3
        /// `lhs == rhs` (also written `=`): the values are equal as `isEqual:` decides.
        case equalTo = 4
        /// `lhs != rhs` (also written `<>`).
        case notEqualTo = 5
        /// `lhs MATCHES rhs`: the right side is an ICU regular expression that matches all of the
        /// left side.
        case matches = 6
        /// `lhs LIKE rhs`: the right side is a pattern where `*` matches any run of characters and
        /// `?` one character.
        case like = 7
        /// `lhs BEGINSWITH rhs`.
        case beginsWith = 8
        /// `lhs ENDSWITH rhs`.
        case endsWith = 9
        /// `lhs IN rhs`: the left side is an element of the right collection, or a substring of
        /// the right string.
        case `in` = 10
        /// A comparison made by a custom selector.
        case customSelector = 11
        /// `lhs CONTAINS rhs`: the left collection contains the right value, or the left string
        /// contains the right string.
        case contains = 99
        /// `lhs BETWEEN {lower, upper}`: the left side lies between the bounds, inclusive.
        case between = 100
    }
}
