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

    /// Creates a predicate that compares two expressions by sending the left value a message
    /// with the right value, such as `hasPrefix:`.
    ///
    /// Linux has no Objective-C runtime: `isEqual:` and the Boolean methods of strings
    /// (`hasPrefix:`, `hasSuffix:`, `containsString:`, `isEqualToString:`) are answered; other
    /// selectors make evaluation fail (the predicate does not match), and a SQLite fetch refuses
    /// custom selectors, as Apple's does.
    ///
    /// - Parameters:
    ///   - lhs: The left expression, whose value receives the message.
    ///   - rhs: The right expression, whose value is the argument.
    ///   - selector: The method, which takes one argument and returns a Boolean.
    public init(leftExpression lhs: NSExpression, rightExpression rhs: NSExpression, customSelector selector: Selector) {
        comparison = ComparisonNode(left: lhs.node, right: rhs.node, operatorType: .customSelector, modifier: .direct, options: [],
                                    customSelector: selector.description)
        super.init(node: .comparison(comparison), parseError: lhs.parseError ?? rhs.parseError)
    }

    /// The view over a comparison node of an existing tree.
    init(comparison: ComparisonNode, parseError: NSError?) {
        self.comparison = comparison
        super.init(node: .comparison(comparison), parseError: parseError)
    }

    /// The left expression.
    open var leftExpression: NSExpression {
        NSExpression.make(node: comparison.left)
    }

    /// The right expression.
    open var rightExpression: NSExpression {
        NSExpression.make(node: comparison.right)
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

    /// The selector of a custom-selector comparison; nil for other operators.
    open var customSelector: Selector? {
        comparison.customSelector.map { Selector($0) }
    }
}
