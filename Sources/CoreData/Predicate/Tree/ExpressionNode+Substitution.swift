extension ExpressionNode {
    /// The expression with each `$variable` named in `bindings` replaced by its value.
    ///
    /// The iterator variable of a `SUBQUERY` is bound by the subquery itself, so it is not
    /// replaced inside the subquery's predicate. A variable that names a key (`SELF.$key`) becomes
    /// that key when its value is a string: `SELF.$key` with `name` is `SELF.name`.
    func substitutingVariables(_ bindings: [String: Any]) -> ExpressionNode {
        switch self {
        case .constant, .evaluatedObject, .indexSymbol, .anyKey:
            self
        case .variable(let name):
            bindings[name].map(Self.expression(for:)) ?? self
        case .keyPath(let base, let components):
            .keyPath(base: base?.substitutingVariables(bindings), components: components)
        case .variableKeyPath(let base, let variable):
            Self.keyPath(base.substitutingVariables(bindings), variable, bindings[variable].map(Self.expression(for:)))
        case .aggregate(let elements):
            .aggregate(elements.map { $0.substitutingVariables(bindings) })
        case .function(let function, let arguments):
            .function(function, arguments.map { $0.substitutingVariables(bindings) })
        case .method(let receiver, let selector, let arguments):
            .method(receiver: receiver.substitutingVariables(bindings), selector: selector,
                    arguments: arguments.map { $0.substitutingVariables(bindings) })
        case .subquery(let collection, let variable, let predicate):
            .subquery(collection: collection.substitutingVariables(bindings), variable: variable,
                      predicate: predicate.substitutingVariables(bindings.filter { $0.key != variable }))
        case .setOperation(let operation, let left, let right):
            .setOperation(operation, left.substitutingVariables(bindings), right.substitutingVariables(bindings))
        case .conditional(let condition, let whenTrue, let whenFalse):
            .conditional(condition.substitutingVariables(bindings), whenTrue.substitutingVariables(bindings),
                         whenFalse.substitutingVariables(bindings))
        case .block(let block, let arguments):
            .block(block, arguments.map { $0.substitutingVariables(bindings) })
        case .fetchRequest(let request, let context, let countOnly):
            .fetchRequest(request: request.substitutingVariables(bindings), context: context.substitutingVariables(bindings), countOnly: countOnly)
        }
    }

    /// `base.$variable` with the variable's value: a string is a key path, with dots for several
    /// components; any other value is read as `valueForKeyPath:` would read it, which fails at
    /// evaluation as Apple's does for a key that is not a string.
    private static func keyPath(_ base: ExpressionNode, _ variable: String, _ value: ExpressionNode?) -> ExpressionNode {
        guard let value else { return .variableKeyPath(base: base, variable: variable) }
        guard case .constant(let constant) = value, let keyPath = constant.value as? String, !keyPath.isEmpty else {
            return .method(receiver: base, selector: "valueForKeyPath:", arguments: [value])
        }
        return base.appendingKeys(keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
    }

    private static func expression(for value: Any) -> ExpressionNode {
        if let expression = ValueUnwrapping.unwrapped(value) as? NSExpression {
            return expression.node
        }
        return .constant(ConstantValue(value))
    }
}
