extension NSComparisonPredicate {
    /// How a comparison predicate applies to a collection on its left side.
    public enum Modifier: UInt, Sendable {
        /// The left side is compared as a whole.
        case direct = 0
        /// `ALL`: every element of the left collection must satisfy the comparison (true when the
        /// collection is empty).
        case all = 1
        /// `ANY` (or `SOME`): at least one element of the left collection must satisfy it.
        case any = 2
    }
}
