/// The tree behind every `NSPredicate`.
///
/// One tree, three consumers: the in-memory evaluator (`PredicateEvaluator`), the canonical
/// `predicateFormat` printer (`PredicateFormatPrinter`) and the SQLite store's SQL compiler all walk
/// this value. `NSPredicate(format:)` and the initializers of `NSComparisonPredicate` and
/// `NSCompoundPredicate` build the same nodes, so a predicate means the same thing however it was
/// made. Read it from any predicate with `NSPredicate.node`.
///
/// Shapes worth knowing when switching over the tree:
/// - `NONE p` is stored as `.compound(.not, [p with the .any modifier])`, the documented equivalent
///   `NOT (ANY …)`; there is no NONE modifier.
/// - `SOME` is stored as the `.any` modifier.
/// - The parser stores a chain `a AND b AND c` as one compound with three operands (Apple's shape is
///   an open question, spec §8.1); parentheses in the format, `(a AND b) AND c`, keep their nesting.
indirect enum PredicateNode: Hashable {
    /// `TRUEPREDICATE` (`true`) or `FALSEPREDICATE` (`false`), as made by `NSPredicate(value:)`.
    case constant(Bool)

    /// A comparison of two expressions, possibly quantified by `ANY` or `ALL`.
    case comparison(ComparisonNode)

    /// `NOT`, `AND` or `OR` over subpredicates.
    ///
    /// An empty `AND` is true and an empty `OR` is false. `NOT` normally has exactly one operand;
    /// with several it negates their conjunction.
    case compound(NSCompoundPredicate.LogicalType, [PredicateNode])

    /// A Swift closure, as made by `NSPredicate(block:)`; it can be evaluated in memory only.
    case block(PredicateBlock)
}
