/// The description of a computed column of a dictionary fetch: an expression, such as
/// `max:(salary)` or `price * quantity`, with the name its value has in each result dictionary.
///
/// Use it in a fetch request's `propertiesToFetch` with `.dictionaryResultType`; aggregate
/// functions (`sum:`, `count:`, `min:`, `max:`, `average:`) compute over each group of
/// `propertiesToGroupBy`, or over all matching objects when there is no grouping.
// Like every property description: mutable until used, then only read.
open class NSExpressionDescription: NSPropertyDescription, @unchecked Sendable {
    /// The expression that computes the value.
    open var expression: NSExpression?

    /// The type of the value; the store converts the computed value to it. The default is
    /// `.undefinedAttributeType`, which keeps the value as computed.
    open var expressionResultType: NSAttributeType = .undefinedAttributeType

    /// The type of the value, as an `NSAttributeDescription.AttributeType`.
    open var resultType: NSAttributeDescription.AttributeType {
        get { NSAttributeDescription.AttributeType(expressionResultType) }
        set { expressionResultType = newValue.rawValue }
    }

    override func copyProperties(from other: NSPropertyDescription) {
        super.copyProperties(from: other)
        guard let other = other as? NSExpressionDescription else { return }
        expression = other.expression
        expressionResultType = other.expressionResultType
    }
}
