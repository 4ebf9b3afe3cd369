extension PredicateNode {
    /// The predicate with each `$variable` named in `bindings` replaced by its value.
    ///
    /// An `NSExpression` value replaces the variable by that expression; any other value becomes a
    /// constant. Variables that `bindings` does not name are kept.
    func substitutingVariables(_ bindings: [String: Any]) -> PredicateNode {
        switch self {
        case .constant, .block:
            return self
        case .comparison(var comparison):
            comparison.left = comparison.left.substitutingVariables(bindings)
            comparison.right = comparison.right.substitutingVariables(bindings)
            return .comparison(comparison)
        case .compound(let type, let subpredicates):
            return .compound(type, subpredicates.map { $0.substitutingVariables(bindings) })
        }
    }
}
