/// The closure of `NSPredicate(block:)`, compared by identity so that the tree stays `Hashable`.
///
/// Apple's SQLite store cannot run block predicates, and neither can ours; the evaluator calls it.
final class PredicateBlock: Hashable, @unchecked Sendable {
    // Unchecked: the closure is Apple's non-Sendable signature; predicates are used on the
    // queue of the context that evaluates them, as on Apple platforms.
    let body: (Any?, [String: Any]?) -> Bool

    init(_ body: @escaping (Any?, [String: Any]?) -> Bool) {
        self.body = body
    }

    static func == (lhs: PredicateBlock, rhs: PredicateBlock) -> Bool {
        lhs === rhs
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

/// The closure of `NSExpression(block:arguments:)`, compared by identity.
final class ExpressionBlock: Hashable, @unchecked Sendable {
    // Unchecked for the same reason as `PredicateBlock`.
    let body: (Any?, [NSExpression], NSMutableDictionary?) -> Any

    init(_ body: @escaping (Any?, [NSExpression], NSMutableDictionary?) -> Any) {
        self.body = body
    }

    static func == (lhs: ExpressionBlock, rhs: ExpressionBlock) -> Bool {
        lhs === rhs
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
