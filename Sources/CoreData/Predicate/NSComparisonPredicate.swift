/// A specialized predicate that you use to compare expressions.
///
/// A comparison predicate compares the results of two expressions with an operator, such as
/// `name BEGINSWITH[c] "a"`: its left and right expressions, its operator type, its options and a
/// modifier that makes it apply to each element of a collection (`ANY`, `ALL`).
open class NSComparisonPredicate: NSPredicate {
    private let comparison: ComparisonNode

    /// Creates a predicate that compares two expressions with an operator, options and modifier.
    ///
    /// - Parameters:
    ///   - lhs: The left expression.
    ///   - rhs: The right expression.
    ///   - modifier: `.direct`, or `.any` / `.all` to compare each element of the left collection.
    ///   - type: The operator.
    ///   - options: String comparison options.
    public init(
        leftExpression lhs: NSExpression,
        rightExpression rhs: NSExpression,
        modifier: NSComparisonPredicate.Modifier,
        type: NSComparisonPredicate.Operator,
        options: NSComparisonPredicate.Options = []
    ) {
        comparison = ComparisonNode(left: lhs.node, right: rhs.node, operatorType: type, modifier: modifier, options: options)
        super.init(node: .comparison(comparison), parseError: lhs.parseError ?? rhs.parseError)
    }

    /// The view over a comparison node of an existing tree.
    init(comparison: ComparisonNode, parseError: NSError?) {
        self.comparison = comparison
        super.init(node: .comparison(comparison), parseError: parseError)
    }

    /// The left expression.
    open var leftExpression: NSExpression {
        NSExpression(node: comparison.left)
    }

    /// The right expression.
    open var rightExpression: NSExpression {
        NSExpression(node: comparison.right)
    }

    /// The operator.
    open var predicateOperatorType: NSComparisonPredicate.Operator {
        comparison.operatorType
    }

    /// The modifier: `.direct`, `.any` or `.all`.
    open var comparisonPredicateModifier: NSComparisonPredicate.Modifier {
        comparison.modifier
    }

    /// The string comparison options.
    open var options: NSComparisonPredicate.Options {
        comparison.options
    }
}
