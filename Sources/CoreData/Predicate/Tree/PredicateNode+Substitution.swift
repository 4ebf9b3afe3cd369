extension PredicateNode {
    /// The predicate with each `$variable` named in `bindings` replaced by its value.
    ///
    /// An `NSExpression` value replaces the variable by that expression; any other value becomes a
    /// constant. Variables that `bindings` does not name are kept.
    func substitutingVariables(_ bindings: [String: Any]) -> PredicateNode {
        mappingComparisons { comparison in
            var substituted = comparison
            substituted.left = comparison.left.substitutingVariables(bindings)
            substituted.right = comparison.right.substitutingVariables(bindings)
            return substituted
        }
    }

    /// The predicate with each comparison, at any depth of `AND`, `OR` and `NOT`, replaced by
    /// what `transform` makes of it.
    func mappingComparisons(_ transform: (ComparisonNode) throws -> ComparisonNode) rethrows -> PredicateNode {
        switch self {
        case .constant, .block:
            return self
        case .comparison(let comparison):
            return .comparison(try transform(comparison))
        case .compound(let type, let subpredicates):
            return .compound(type, try subpredicates.map { try $0.mappingComparisons(transform) })
        }
    }
}
