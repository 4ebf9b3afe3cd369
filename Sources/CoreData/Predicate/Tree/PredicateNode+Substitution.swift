extension PredicateNode {
    /// The predicate with each `$variable` named in `bindings` replaced by its value.
    ///
    /// An `NSExpression` value replaces the variable by that expression; any other value becomes a
    /// constant. Variables that `bindings` does not name are kept.
    func substitutingVariables(_ bindings: [String: Any]) -> PredicateNode {
        mappingComparisonOperands { $0.substitutingVariables(bindings) }
    }

    /// The predicate with each operand of its comparisons, at any depth of `AND`, `OR` and
    /// `NOT`, replaced by what `transform` makes of it.
    func mappingComparisonOperands(_ transform: (ExpressionNode) throws -> ExpressionNode) rethrows -> PredicateNode {
        switch self {
        case .constant, .block:
            return self
        case .comparison(var comparison):
            comparison.left = try transform(comparison.left)
            comparison.right = try transform(comparison.right)
            return .comparison(comparison)
        case .compound(let type, let subpredicates):
            return .compound(type, try subpredicates.map { try $0.mappingComparisonOperands(transform) })
        }
    }

}
