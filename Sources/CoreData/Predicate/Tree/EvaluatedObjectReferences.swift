// Whether a tree reads the object it is evaluated with (`SELF`, or a key path that starts at
// it), as opposed to reading only variables and constants. The SQL compiler needs to know for
// SUBQUERY, whose predicate reads the outer object.
extension PredicateNode {
    var readsEvaluatedObject: Bool {
        switch self {
        case .constant: false
        case .block: true
        case .comparison(let comparison): comparison.left.readsEvaluatedObject || comparison.right.readsEvaluatedObject
        case .compound(_, let subpredicates): subpredicates.contains(where: \.readsEvaluatedObject)
        }
    }
}

extension ExpressionNode {
    var readsEvaluatedObject: Bool {
        switch self {
        case .evaluatedObject, .anyKey, .block, .keyPath(base: nil, _):
            true
        case .subquery(let collection, _, let predicate):
            collection.readsEvaluatedObject || predicate.readsEvaluatedObject
        case .conditional(let condition, _, _) where condition.readsEvaluatedObject:
            true
        default:
            subexpressions.contains(where: \.readsEvaluatedObject)
        }
    }
}
