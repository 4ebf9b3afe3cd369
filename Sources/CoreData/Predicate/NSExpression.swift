/// An expression for use in a comparison predicate.
///
/// Expressions are the operands of comparisons: constants, key paths read from the evaluated
/// object, `SELF`, `$variables` bound at evaluation time, aggregates of other expressions,
/// functions and operators, subqueries, set operations, conditionals and blocks.
///
/// Where Apple raises an exception for a property that does not apply to the kind of
/// expression, such as `function` of a constant, this implementation returns an empty value.
open class NSExpression: NSObject, NSCopying {
    /// The tree this expression stands for.
    let node: ExpressionNode

    /// Why the format string this expression was made from could not be parsed, or nil.
    let parseError: NSError?

    /// Creates the expression that stands for `node`, or a nil constant carrying an error when
    /// `node` nests deeper than `NestingLimit.maximumDepth`.
    init(node: ExpressionNode, parseError: NSError? = nil) {
        (self.node, self.parseError) = Self.checkedNesting(node, parseError: parseError)
        super.init()
    }

    private static func checkedNesting(_ node: ExpressionNode, parseError: NSError?) -> (ExpressionNode, NSError?) {
        guard node.nestingDepth > NestingLimit.maximumDepth else { return (node, parseError) }
        return (.constant(ConstantValue(nil)), parseError ?? NestingLimit.error)
    }

    /// Creates an expression by substituting the values of an argument list into a format string,
    /// such as `NSExpression(format: "%K.@count", "employees")`.
    ///
    /// An invalid format string gives an expression that evaluates to nil and makes predicates
    /// built from it fail with the parse error.
    ///
    /// - Parameters:
    ///   - expressionFormat: The format string.
    ///   - args: The arguments for the format specifiers.
    public convenience init(format expressionFormat: String, _ args: Any...) {
        self.init(format: expressionFormat, argumentArray: args)
    }

    /// Creates an expression by substituting the values in an array into a format string.
    ///
    /// - Parameters:
    ///   - expressionFormat: The format string.
    ///   - arguments: The arguments for the format specifiers, in order.
    public convenience init(format expressionFormat: String, argumentArray arguments: [Any]) {
        switch PredicateParser.parseExpression(expressionFormat, arguments: arguments) {
        case .success(let node):
            self.init(node: node)
        case .failure(let error):
            self.init(node: .constant(ConstantValue(nil)), parseError: error)
        }
    }

    /// Creates an expression that represents a constant value.
    ///
    /// - Parameter obj: The value; nil represents null.
    public init(forConstantValue obj: Any?) {
        node = .constant(ConstantValue(obj))
        parseError = nil
        super.init()
    }

    /// Creates an expression that reads a key path from the evaluated object.
    ///
    /// - Parameter keyPath: A dotted key path such as `department.name` or `employees.@count`.
    public init(forKeyPath keyPath: String) {
        node = .keyPath(base: nil, components: keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
        parseError = nil
        super.init()
    }

    /// Creates an expression that extracts a value from the variable bindings at evaluation time.
    ///
    /// - Parameter string: The variable's name, without the `$`.
    public init(forVariable string: String) {
        node = .variable(string)
        parseError = nil
        super.init()
    }

    /// Creates an aggregate expression, whose value is the collection of its elements' values.
    ///
    /// - Parameter subexpressions: The elements: `NSExpression` objects, or values that become
    ///   constant expressions.
    public init(forAggregate subexpressions: [Any]) {
        let aggregate = ExpressionNode.aggregate(subexpressions.map { element in
            (element as? NSExpression)?.node ?? .constant(ConstantValue(element))
        })
        let elementError = subexpressions.lazy.compactMap { ($0 as? NSExpression)?.parseError }.first
        (node, parseError) = Self.checkedNesting(aggregate, parseError: elementError)
        super.init()
    }

    /// Returns an expression that represents the object being evaluated: `SELF`.
    open class func expressionForEvaluatedObject() -> NSExpression {
        NSExpression(node: .evaluatedObject)
    }

    /// The kind of expression.
    ///
    /// Operators, indexes, `CAST` and key paths read from a computed value are functions, as on
    /// Apple platforms; `FIRST`, `LAST` and `SIZE` are constants.
    open var expressionType: NSExpression.ExpressionType {
        switch node {
        case .constant, .indexSymbol: .constantValue
        case .evaluatedObject: .evaluatedObject
        case .variable: .variable
        case .keyPath: node.rootedKeyPath == nil ? .function : .keyPath
        case .variableKeyPath: .function
        case .aggregate: .aggregate
        case .function, .method: .function
        case .subquery: .subquery
        case .setOperation(.union, _, _): .unionSet
        case .setOperation(.intersect, _, _): .intersectSet
        case .setOperation(.minus, _, _): .minusSet
        case .conditional: .conditional
        case .anyKey: .anyKey
        case .block: .block
        case .fetchRequest: .fetchRequest
        }
    }

    /// The constant value of a constant expression; nil for other kinds of expression.
    open var constantValue: Any? {
        switch node {
        case .constant(let constant): constant.value
        case .indexSymbol(let symbol): symbol.rawValue
        default: nil
        }
    }

    /// The key path of a key-path expression, with dots, such as `department.name`; empty for other
    /// kinds of expression.
    open var keyPath: String {
        guard case .keyPath(_, let components) = node else { return "" }
        return components.joined(separator: ".")
    }

    /// The name of a variable expression, without the `$`; empty for other kinds of expression.
    open var variable: String {
        guard case .variable(let name) = node else { return "" }
        return name
    }

    /// The elements of an aggregate expression, as an array of `NSExpression`; the collection
    /// expression of a subquery; an empty array for other kinds of expression.
    open var collection: Any {
        switch node {
        case .aggregate(let elements): elements.map { NSExpression(node: $0) }
        case .subquery(let collection, _, _): NSExpression(node: collection)
        default: [NSExpression]()
        }
    }

    /// Returns an expression that matches any key of a dictionary: `ANYKEY`.
    open class func expressionForAnyKey() -> NSExpression {
        NSExpression(node: .anyKey)
    }

    // MARK: Reading expressions

    /// The selector of a function expression, such as `sum:` or `add:to:`; `valueForKeyPath:`
    /// for a key path read from a computed value; empty for other kinds of expression.
    open var function: String {
        switch node {
        case .function(let function, _): function.selector
        case .method(_, let selector, _): selector
        case .keyPath where node.rootedKeyPath == nil, .variableKeyPath: "valueForKeyPath:"
        default: ""
        }
    }

    /// The arguments of a function or block expression; nil for other kinds of expression.
    open var arguments: [NSExpression]? {
        switch node {
        case .function(_, let arguments), .method(_, _, let arguments), .block(_, let arguments):
            arguments.map { NSExpression(node: $0) }
        case .keyPath(_?, let components) where node.rootedKeyPath == nil:
            [NSExpression(forKeyPath: components.joined(separator: "."))]
        case .variableKeyPath(_, let variable):
            [NSExpression(forVariable: variable)]
        default:
            nil
        }
    }

    /// The receiver of a `FUNCTION` expression or of a key path read from a computed value, and
    /// the collection of a subquery; a nil constant for other kinds of expression.
    open var operand: NSExpression {
        switch node {
        case .method(let receiver, _, _): NSExpression(node: receiver)
        case .keyPath(let base?, _) where node.rootedKeyPath == nil, .variableKeyPath(let base, _): NSExpression(node: base)
        case .subquery(let collection, _, _): NSExpression(node: collection)
        default: NSExpression(forConstantValue: nil)
        }
    }

    /// The left collection of a set expression; a nil constant for other kinds of expression.
    open var left: NSExpression {
        guard case .setOperation(_, let left, _) = node else { return NSExpression(forConstantValue: nil) }
        return NSExpression(node: left)
    }

    /// The right collection of a set expression; a nil constant for other kinds of expression.
    open var right: NSExpression {
        guard case .setOperation(_, _, let right) = node else { return NSExpression(forConstantValue: nil) }
        return NSExpression(node: right)
    }

    /// The predicate of a subquery or conditional expression; `FALSEPREDICATE` for other kinds.
    open var predicate: NSPredicate {
        switch node {
        case .subquery(_, _, let predicate), .conditional(let predicate, _, _): NSPredicate.make(node: predicate)
        default: NSPredicate(value: false)
        }
    }

    /// The expression a conditional evaluates when its predicate holds.
    open var `true`: NSExpression {
        guard case .conditional(_, let whenTrue, _) = node else { return NSExpression(forConstantValue: nil) }
        return NSExpression(node: whenTrue)
    }

    /// The expression a conditional evaluates when its predicate does not hold.
    open var `false`: NSExpression {
        guard case .conditional(_, _, let whenFalse) = node else { return NSExpression(forConstantValue: nil) }
        return NSExpression(node: whenFalse)
    }

    /// The closure of a block expression; for other kinds of expression, a closure that
    /// evaluates the expression itself.
    open var expressionBlock: (Any?, [NSExpression], NSMutableDictionary?) -> Any {
        if case .block(let block, _) = node { return block.body }
        return { object, _, context in self.expressionValue(with: object, context: context) ?? NSNull() }
    }

    /// Allows evaluation of an expression that was decoded from an archive. Expressions made in
    /// code or from format strings can always be evaluated, so this does nothing.
    open func allowEvaluation() {}

    /// Evaluates the expression with an object and a dictionary of variable bindings.
    ///
    /// - Parameters:
    ///   - object: The object to evaluate key paths and `SELF` against.
    ///   - context: The values of the expression's `$variables`, by name without the `$`.
    /// - Returns: The value, or nil when it is null or cannot be computed.
    open func expressionValue(with object: Any?, context: NSMutableDictionary?) -> Any? {
        guard parseError == nil else { return nil }
        let evaluator = PredicateEvaluator(variables: Self.bindings(from: context), context: context)
        return try? evaluator.value(of: node, with: object)
    }

    /// The expression in format-string syntax, such as `department.name` or `{1, 2}`.
    open override var description: String {
        PredicateFormatPrinter.format(node)
    }

    /// Expressions are equal when they have the same structure, with constants compared by value.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSExpression else { return false }
        return node == other.node && parseError?.localizedDescription == other.parseError?.localizedDescription
    }

    /// A hash value consistent with `isEqual(_:)`.
    open override var hash: Int {
        node.hashValue
    }

    /// Returns the expression itself: expressions are immutable.
    open func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    private static func bindings(from context: NSMutableDictionary?) -> [String: Any] {
        var bindings: [String: Any] = [:]
        for (key, value) in context ?? [:] {
            if let name = key as? String {
                bindings[name] = value
            }
        }
        return bindings
    }
}
