extension NSCompoundPredicate {
    /// How a compound predicate combines its subpredicates.
    public enum LogicalType: UInt, Sendable {
        /// `NOT`: the negation of the single subpredicate.
        case not = 0
        /// `AND`: every subpredicate holds (true when there are none).
        case and = 1
        /// `OR`: at least one subpredicate holds (false when there are none).
        case or = 2
    }
}
