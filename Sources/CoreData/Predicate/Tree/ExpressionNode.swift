/// The tree behind every `NSExpression`: the operands of comparison predicates.
///
/// Part of the single predicate tree described at `PredicateNode`. New kinds of expression
/// (functions, subqueries, set operations, conditionals) are added as new cases.
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

    /// `{a, b, c}`: a collection built from the values of its elements.
    case aggregate([ExpressionNode])
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
}
