extension NSExpression {
    /// The kind of an expression. The raw values are Apple's.
    public enum ExpressionType: UInt, Sendable {
        /// A constant value.
        case constantValue = 0
        /// `SELF`: the object being evaluated.
        case evaluatedObject = 1
        /// A `$variable`, bound at evaluation time.
        case variable = 2
        /// A key path, read from the evaluated object.
        case keyPath = 3
        /// A function (including a key path read from another expression's value).
        case function = 4
        /// `UNION` of two collections.
        case unionSet = 5
        /// `INTERSECT` of two collections.
        case intersectSet = 6
        /// `MINUS` of two collections.
        case minusSet = 7
        /// A `SUBQUERY`.
        case subquery = 13
        /// An aggregate `{a, b, c}`.
        case aggregate = 14
        /// `ANYKEY`.
        case anyKey = 15
        /// A block.
        case block = 19
        /// A `TERNARY` conditional.
        case conditional = 20
        /// A fetch request run in a managed object context: `NSFetchRequestExpression`.
        case fetchRequest = 50
    }
}

/// The type of an `NSFetchRequestExpression`.
public let NSFetchRequestExpressionType = NSExpression.ExpressionType.fetchRequest
