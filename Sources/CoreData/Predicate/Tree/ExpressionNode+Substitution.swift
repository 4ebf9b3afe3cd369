extension ExpressionNode {
    /// The expression with each `$variable` named in `bindings` replaced by its value.
    func substitutingVariables(_ bindings: [String: Any]) -> ExpressionNode {
        switch self {
        case .constant, .evaluatedObject:
            self
        case .variable(let name):
            bindings[name].map(Self.expression(for:)) ?? self
        case .keyPath(let base, let components):
            .keyPath(base: base?.substitutingVariables(bindings), components: components)
        case .aggregate(let elements):
            .aggregate(elements.map { $0.substitutingVariables(bindings) })
        }
    }

    private static func expression(for value: Any) -> ExpressionNode {
        if let expression = ValueUnwrapping.unwrapped(value) as? NSExpression {
            return expression.node
        }
        return .constant(ConstantValue(value))
    }
}
