/// The closure of `NSPredicate(block:)`, compared by identity so that the tree stays `Hashable`.
///
/// Apple's SQLite store cannot run block predicates, and neither can ours; the evaluator calls it.
final class PredicateBlock: Hashable {
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
final class ExpressionBlock: Hashable {
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
