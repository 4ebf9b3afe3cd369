/// A comparison predicate: `[modifier] left operator[options] right`.
///
/// The operator, modifier and options are the public enumerations of `NSComparisonPredicate`, so the
/// tree and the public API can never disagree about their raw values.
struct ComparisonNode: Hashable {
    /// The left operand; with a modifier other than `.direct` it must evaluate to a collection.
    var left: ExpressionNode

    /// The right operand. For `BETWEEN` it evaluates to a two-element collection `{lower, upper}`.
    var right: ExpressionNode

    /// What the comparison tests (`==`, `BEGINSWITH`, `IN`, …).
    var operatorType: NSComparisonPredicate.Operator

    /// `.direct`, or `.any` / `.all` for a quantified comparison over the left collection.
    var modifier: NSComparisonPredicate.Modifier

    /// String options: `[c]`, `[d]`, `[n]` and `[l]`.
    var options: NSComparisonPredicate.Options

    /// The selector of a `.customSelector` comparison (`SELF hasPrefix: "a"`), with its colon.
    var customSelector: String? = nil
}
