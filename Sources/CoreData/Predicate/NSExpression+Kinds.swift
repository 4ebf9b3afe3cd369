// The kinds of expression beyond constants, key paths, variables and aggregates: functions,
// subqueries, set operations, conditionals, ANYKEY and blocks, with the properties that read them.
extension NSExpression {
    /// Creates an expression that applies a built-in function to arguments, such as
    /// `NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "salary")])`.
    ///
    /// The functions are those of Apple's documentation: `sum:`, `count:`, `min:`, `max:`,
    /// `average:`, `median:`, `mode:`, `stddev:`, `add:to:`, `from:subtract:`, `multiply:by:`,
    /// `divide:by:`, `modulus:by:`, `sqrt:`, `log:`, `ln:`, `raise:toPower:`, `exp:`, `ceiling:`,
    /// `abs:`, `trunc:`, `floor:`, `random`, `random:`, `now`, `uppercase:`, `lowercase:`,
    /// `bitwiseAnd:with:`, `bitwiseOr:with:`, `bitwiseXor:with:`, `leftshift:by:`,
    /// `rightshift:by:`, `onesComplement:`, `noindex:`, `objectFrom:withIndex:` and
    /// `castObject:toType:`.
    ///
    /// Where Apple raises for an unknown function or a wrong number of arguments, the expression
    /// evaluates to nil and predicates built from it fail with an error naming the function.
    ///
    /// - Parameters:
    ///   - name: The function's selector name, with its colons.
    ///   - parameters: The arguments: `NSExpression` objects, or values that become constants.
    public convenience init(forFunction name: String, arguments parameters: [Any]) {
        let (arguments, argumentError) = Self.nodes(parameters)
        guard let function = ExpressionFunction(selector: name), function.arity == arguments.count else {
            let reason = ExpressionFunction(selector: name).map { "\(name) takes \($0.arity) arguments, not \(arguments.count)" }
                ?? "\(name) is not a built-in function of NSExpression"
            self.init(node: .constant(ConstantValue(nil)), parseError: CoreDataError.make(CocoaError.Code.formatting.rawValue, reason))
            return
        }
        self.init(node: .function(function, arguments), parseError: argumentError)
    }

    /// Creates an expression that calls a method on the value of another expression:
    /// `FUNCTION(target, "selector", arguments…)`.
    ///
    /// Linux has no Objective-C runtime to send arbitrary messages; evaluation answers the
    /// built-in functions and common methods of strings and numbers (`uppercaseString`,
    /// `length`, `stringByAppendingString:`, `doubleValue`, …) and fails for other selectors.
    ///
    /// - Parameters:
    ///   - target: The expression whose value receives the message.
    ///   - name: The selector name.
    ///   - parameters: The arguments: `NSExpression` objects, or values that become constants.
    public convenience init(forFunction target: NSExpression, selectorName name: String, arguments parameters: [Any]?) {
        let (arguments, argumentError) = Self.nodes(parameters ?? [])
        self.init(node: .method(receiver: target.node, selector: name, arguments: arguments), parseError: target.parseError ?? argumentError)
    }

    /// Creates an expression for the elements of a collection that match a predicate:
    /// `SUBQUERY(collection, $variable, predicate)`.
    ///
    /// - Parameters:
    ///   - expression: The collection, typically a to-many key path.
    ///   - variable: The name, without `$`, that the predicate uses for each element.
    ///   - predicate: The condition elements satisfy.
    public convenience init(forSubquery expression: NSExpression, usingIteratorVariable variable: String, predicate: NSPredicate) {
        self.init(node: .subquery(collection: expression.node, variable: variable, predicate: predicate.node),
                  parseError: expression.parseError ?? predicate.parseError)
    }

    /// Creates an expression for the union of two collections: `left UNION right`.
    public convenience init(forUnionSet left: NSExpression, with right: NSExpression) {
        self.init(setOperation: .union, left, right)
    }

    /// Creates an expression for the intersection of two collections: `left INTERSECT right`.
    public convenience init(forIntersectSet left: NSExpression, with right: NSExpression) {
        self.init(setOperation: .intersect, left, right)
    }

    /// Creates an expression for the elements of one collection that another does not have:
    /// `left MINUS right`.
    public convenience init(forMinusSet left: NSExpression, with right: NSExpression) {
        self.init(setOperation: .minus, left, right)
    }

    private convenience init(setOperation operation: SetOperation, _ left: NSExpression, _ right: NSExpression) {
        self.init(node: .setOperation(operation, left.node, right.node), parseError: left.parseError ?? right.parseError)
    }

    /// Creates an expression whose value is one of two expressions' values, chosen by a
    /// predicate: `TERNARY(predicate, trueExpression, falseExpression)`.
    public convenience init(forConditional predicate: NSPredicate, trueExpression: NSExpression, falseExpression: NSExpression) {
        self.init(node: .conditional(predicate.node, trueExpression.node, falseExpression.node),
                  parseError: predicate.parseError ?? trueExpression.parseError ?? falseExpression.parseError)
    }

    /// Creates an expression whose value a closure computes from the evaluated object, the
    /// argument expressions and the variable bindings.
    ///
    /// A fetch from a SQLite store cannot run a block and fails with an error.
    ///
    /// - Parameters:
    ///   - block: The closure.
    ///   - arguments: The expressions passed to the closure.
    public convenience init(block: @escaping (Any?, [NSExpression], NSMutableDictionary?) -> Any, arguments: [NSExpression]?) {
        let arguments = arguments ?? []
        self.init(node: .block(ExpressionBlock(block), arguments.map(\.node)), parseError: arguments.lazy.compactMap(\.parseError).first)
    }

    /// The nodes of initializer arguments that may be expressions or plain values, and the
    /// first parse error among them.
    private static func nodes(_ values: [Any]) -> ([ExpressionNode], NSError?) {
        let nodes = values.map { ($0 as? NSExpression)?.node ?? .constant(ConstantValue($0)) }
        return (nodes, values.lazy.compactMap { ($0 as? NSExpression)?.parseError }.first)
    }
}

extension NSExpression {
    /// A key path read from another expression's value: `$item.name` is `name` read from the
    /// variable `item`. For layers that build predicates without a format string (SwiftData's
    /// predicate translation); a key path from a key path extends it.
    package convenience init(forKeyPath components: [String], from base: NSExpression) {
        if case .keyPath(let root, let leading) = base.node {
            self.init(node: .keyPath(base: root, components: leading + components))
        } else {
            self.init(node: .keyPath(base: base.node, components: components))
        }
    }
}
