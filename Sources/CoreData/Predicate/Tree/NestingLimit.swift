/// The deepest predicate or expression tree that can be built.
///
/// The initializers of `NSCompoundPredicate`, `NSComparisonPredicate` and `NSExpression` nest
/// without bound, while evaluating, printing, compiling and even releasing a tree recurse once
/// per level. A tree deeper than this is refused when it is made, so that no later use of it can
/// exhaust a thread's stack: the predicate evaluates to false and fetches that use it throw.
/// Chains of hundreds of `AND`s built one subpredicate at a time stay well within it.
enum NestingLimit {
    static let maximumDepth = 1000

    /// The error a predicate or expression deeper than `maximumDepth` carries.
    static var error: NSError {
        CoreDataError.make(
            CocoaError.Code.formatting.rawValue,
            "The predicate nests more than \(maximumDepth) levels deep; combine its subpredicates in fewer levels."
        )
    }
}

extension PredicateNode {
    /// How many predicates and expressions enclose the deepest leaf, counting this one.
    var nestingDepth: Int {
        switch self {
        case .constant, .block:
            1
        case .comparison(let comparison):
            1 + max(comparison.left.nestingDepth, comparison.right.nestingDepth)
        case .compound(_, let subpredicates):
            1 + (subpredicates.lazy.map(\.nestingDepth).max() ?? 0)
        }
    }
}

extension ExpressionNode {
    /// How many expressions enclose the deepest leaf, counting this one.
    var nestingDepth: Int {
        let predicateDepth = switch self {
        case .subquery(_, _, let predicate), .conditional(let predicate, _, _): predicate.nestingDepth
        default: 0
        }
        return 1 + max(predicateDepth, subexpressions.lazy.map(\.nestingDepth).max() ?? 0)
    }
}
