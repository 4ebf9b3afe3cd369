// Whether a tree reads the object it is evaluated with (`SELF`, or a key path that starts at
// it), as opposed to reading only variables and constants, which key paths it reads from it, and
// whether it calls Swift blocks. The SQL compiler needs the first for SUBQUERY, whose predicate
// reads the outer object; fetches check the key paths against the entity and need the last,
// since blocks must see managed objects.
extension PredicateNode {
    /// Whether the predicate, or an expression in it, is a block.
    var callsBlocks: Bool {
        hasComparisonOperand(where: \.callsBlocks, blocksPass: true)
    }

    /// Whether the predicate reads the object it is evaluated with; a block may.
    var readsEvaluatedObject: Bool {
        hasComparisonOperand(where: \.readsEvaluatedObject, blocksPass: true)
    }

    /// The key paths the predicate reads from the object it is evaluated with (`title`,
    /// `SELF.movie.title`), as components; key paths inside a SUBQUERY's predicate and in blocks
    /// are left out.
    var evaluatedObjectKeyPaths: [[String]] {
        switch self {
        case .constant, .block: []
        case .comparison(let comparison): comparison.left.evaluatedObjectKeyPaths + comparison.right.evaluatedObjectKeyPaths
        case .compound(_, let subpredicates): subpredicates.flatMap(\.evaluatedObjectKeyPaths)
        }
    }

    /// Whether an operand of a comparison, at any depth of `AND`, `OR` and `NOT`, passes `test`;
    /// a block predicate passes when `blocksPass`.
    func hasComparisonOperand(where test: (ExpressionNode) -> Bool, blocksPass: Bool = false) -> Bool {
        switch self {
        case .constant: false
        case .block: blocksPass
        case .comparison(let comparison): test(comparison.left) || test(comparison.right)
        case .compound(_, let subpredicates): subpredicates.contains { $0.hasComparisonOperand(where: test, blocksPass: blocksPass) }
        }
    }
}

extension ExpressionNode {
    var callsBlocks: Bool {
        switch self {
        case .block:
            true
        case .subquery(_, _, let predicate) where predicate.callsBlocks, .conditional(let predicate, _, _) where predicate.callsBlocks:
            true
        default:
            subexpressions.contains(where: \.callsBlocks)
        }
    }

    /// The key paths the expression reads from the evaluated object; see
    /// `PredicateNode.evaluatedObjectKeyPaths`.
    var evaluatedObjectKeyPaths: [[String]] {
        if let keyPath = rootedKeyPath {
            return [keyPath]
        }
        switch self {
        case .subquery(let collection, _, _):
            return collection.evaluatedObjectKeyPaths
        case .conditional(let condition, let whenTrue, let whenFalse):
            return condition.evaluatedObjectKeyPaths + whenTrue.evaluatedObjectKeyPaths + whenFalse.evaluatedObjectKeyPaths
        default:
            return subexpressions.flatMap(\.evaluatedObjectKeyPaths)
        }
    }

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
