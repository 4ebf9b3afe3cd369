/// The tree behind every `NSExpression`: the operands of comparison predicates.
///
/// Part of the single predicate tree described at `PredicateNode`.
indirect enum ExpressionNode: Hashable {
    /// A fixed value: a literal, a `%@` argument, or `NSExpression(forConstantValue:)`.
    ///
    /// Literals parse to `NSNumber` (integers as 64-bit integers, other numbers as doubles, `TRUE`
    /// and `YES` as the Boolean `NSNumber`) and `String`; `NIL` and `NULL` to a nil constant.
    case constant(ConstantValue)

    /// `SELF`: the object the predicate is evaluated with.
    case evaluatedObject

    /// `$name`: a value looked up by name in the bindings at evaluation time.
    case variable(String)

    /// A key path read from a base value, one component at a time.
    ///
    /// `base` is nil when the path starts at the evaluated object implicitly (`name.first`), and
    /// the base expression otherwise (`.evaluatedObject` for `SELF.name`, or any expression, as in
    /// `$person.name`). Components are keys (`name`), collection operators starting with `@`
    /// (`@count`, `@sum`), or `self`. Use `rootedKeyPath` to read a path that starts at the
    /// evaluated object either way.
    case keyPath(base: ExpressionNode?, components: [String])

    /// A key path read from a base value, named by the string a variable holds at evaluation
    /// time: `$a.$b`, `SELF.$key`. Substituting a string for the variable makes it a plain key path.
    case variableKeyPath(base: ExpressionNode, variable: String)

    /// `{a, b, c}`: a collection built from the values of its elements.
    case aggregate([ExpressionNode])

    /// A built-in function of its arguments: the arithmetic and bitwise operators (`a + b` is
    /// `add:to:`), the functions of NSExpression's documentation (`sum:`, `now`, …), an index
    /// (`a[1]` is `objectFrom:withIndex:`) and `CAST` (`castObject:toType:`).
    case function(ExpressionFunction, [ExpressionNode])

    /// `FUNCTION(receiver, "selector", arguments…)`: a method called on the receiver's value.
    case method(receiver: ExpressionNode, selector: String, arguments: [ExpressionNode])

    /// `FIRST`, `LAST` or `SIZE` as the index of `a[…]`.
    case indexSymbol(IndexSymbol)

    /// `SUBQUERY(collection, $variable, predicate)`: the elements of the collection for which the
    /// predicate holds with the variable bound to the element.
    case subquery(collection: ExpressionNode, variable: String, predicate: PredicateNode)

    /// `left UNION right`, `left INTERSECT right` or `left MINUS right`.
    case setOperation(SetOperation, ExpressionNode, ExpressionNode)

    /// `TERNARY(condition, whenTrue, whenFalse)`.
    case conditional(PredicateNode, ExpressionNode, ExpressionNode)

    /// `ANYKEY`: the values of every key of a dictionary, as in `ANYKEY == 1`.
    case anyKey

    /// A Swift closure over the evaluated object and its argument expressions; memory only.
    case block(ExpressionBlock, [ExpressionNode])

    /// `NSFetchRequestExpression`: the results of the fetch request `request` evaluates to, run
    /// in the managed object context `context` evaluates to, or their number when `countOnly`.
    case fetchRequest(request: ExpressionNode, context: ExpressionNode, countOnly: Bool)
}

extension ExpressionNode {
    /// The components of a key path that starts at the evaluated object, written with or without
    /// `SELF.`; nil for every other expression.
    ///
    /// This is the form the SQL compiler can map to columns and joins.
    var rootedKeyPath: [String]? {
        guard case .keyPath(let base, let components) = self else { return nil }
        switch base {
        case nil, .evaluatedObject?:
            return components
        case let base?:
            return base.rootedKeyPath.map { $0 + components }
        }
    }

    /// The expression that reads the key path `keys` from this one's value: a key path extended
    /// by the keys (`a.b` then `a.b.c.d`), or a key path based on any other expression
    /// (`SELF.name`, `$person.name`, `a[0].name`); this expression itself when `keys` is empty.
    ///
    /// Callers hand over every key of a run at once: extending a path one key at a time would copy
    /// its components at each step, which makes a long path cost time quadratic in its length.
    func appendingKeys(_ keys: [String]) -> ExpressionNode {
        guard !keys.isEmpty else { return self }
        if case .keyPath(let base, let components) = self {
            return .keyPath(base: base, components: components + keys)
        }
        return .keyPath(base: self, components: keys)
    }

    /// The direct subexpressions, in order; predicates inside are not expressions and are left out.
    var subexpressions: [ExpressionNode] {
        switch self {
        case .constant, .evaluatedObject, .variable, .indexSymbol, .anyKey:
            []
        case .keyPath(let base, _):
            base.map { [$0] } ?? []
        case .variableKeyPath(let base, _):
            [base]
        case .aggregate(let elements):
            elements
        case .function(_, let arguments), .block(_, let arguments):
            arguments
        case .fetchRequest(let request, let context, _):
            [request, context]
        case .method(let receiver, _, let arguments):
            [receiver] + arguments
        case .subquery(let collection, _, _):
            [collection]
        case .setOperation(_, let left, let right):
            [left, right]
        case .conditional(_, let whenTrue, let whenFalse):
            [whenTrue, whenFalse]
        }
    }

    /// Whether the value is the same for every evaluated object and every binding: no key path,
    /// `SELF`, variable, random number or block is involved.
    var isConstantFolding: Bool {
        switch self {
        case .constant, .indexSymbol:
            true
        case .evaluatedObject, .variable, .keyPath, .variableKeyPath, .anyKey, .block, .subquery, .conditional, .method, .fetchRequest:
            false
        case .function(let function, _) where !function.isDeterministic:
            false
        case .function, .aggregate, .setOperation:
            subexpressions.allSatisfy(\.isConstantFolding)
        }
    }
}
