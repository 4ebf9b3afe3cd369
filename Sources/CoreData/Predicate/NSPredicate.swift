/// A definition of logical conditions for constraining a search for a fetch or for in-memory
/// filtering.
///
/// Create predicates from a format string, `NSPredicate(format: "name BEGINSWITH[c] %@", prefix)`,
/// or by composing `NSComparisonPredicate` and `NSCompoundPredicate` objects. A predicate is
/// immutable; it evaluates against managed objects, dictionaries and collections.
///
/// Unlike Foundation on Apple platforms, an invalid format string does not raise: the predicate
/// evaluates to false and fetch requests that use it fail with the parse error. Use
/// `init(validatingFormat:_:)` to receive that error at once.
open class NSPredicate: NSObject, NSCopying {
    /// The tree this predicate stands for; the evaluator, the printer and the SQL compiler read it.
    let node: PredicateNode

    /// Why the format string this predicate was made from could not be parsed, or nil.
    ///
    /// A predicate with a parse error evaluates to false, and fetches that use it throw this error.
    let parseError: NSError?

    /// How deeply `node` nests (`PredicateNode.nestingDepth`), kept so that a compound predicate
    /// finds its depth from its subpredicates' without walking their trees: a chain built one
    /// subpredicate at a time would otherwise take time growing with the square of its length.
    let nestingDepth: Int

    /// Creates the predicate that stands for `node`, or a false one carrying an error when `node`
    /// nests deeper than `NestingLimit.maximumDepth`; `nestingDepth` is `node`'s, when known.
    init(node: PredicateNode, nestingDepth: Int? = nil, parseError: NSError? = nil) {
        let depth = nestingDepth ?? node.nestingDepth
        if depth > NestingLimit.maximumDepth {
            self.node = .constant(false)
            self.nestingDepth = 1
            self.parseError = parseError ?? NestingLimit.error
        } else {
            self.node = node
            self.nestingDepth = depth
            self.parseError = parseError
        }
        super.init()
    }

    /// Creates a predicate by substituting the values of an argument list into a format string.
    ///
    /// Arguments replace the format specifiers outside quotes, left to right: `%@` takes an object
    /// (nil matches null; an `NSExpression` is used as that expression), `%K` a key path string,
    /// `%d` an integer, `%f` a number and `%s` a string.
    ///
    /// - Parameters:
    ///   - predicateFormat: The format string, such as `"age > %d AND name BEGINSWITH[c] %@"`.
    ///   - args: The arguments for the format specifiers.
    public convenience init(format predicateFormat: String, _ args: Any...) {
        self.init(format: predicateFormat, argumentArray: args)
    }

    /// Creates a predicate by substituting the values in an array into a format string.
    ///
    /// - Parameters:
    ///   - predicateFormat: The format string.
    ///   - arguments: The arguments for the format specifiers, in order.
    public convenience init(format predicateFormat: String, argumentArray arguments: [Any]?) {
        switch PredicateParser.parsePredicate(predicateFormat, arguments: arguments ?? []) {
        case .success(let node):
            self.init(node: node)
        case .failure(let error):
            self.init(node: .constant(false), parseError: error)
        }
    }

    /// Creates a predicate from a format string, throwing when the string cannot be parsed.
    ///
    /// This initializer is not part of Apple's API, where an invalid format raises an exception.
    ///
    /// - Parameters:
    ///   - predicateFormat: The format string.
    ///   - args: The arguments for the format specifiers.
    /// - Throws: An `NSError` in `NSCocoaErrorDomain` with code `NSFormattingError` (2048) whose
    ///   description names the character offset of the problem and what was expected there.
    public convenience init(validatingFormat predicateFormat: String, _ args: Any...) throws {
        try self.init(validatingFormat: predicateFormat, argumentArray: args)
    }

    /// Creates a predicate from a format string and an array of arguments, throwing when the
    /// string cannot be parsed or the arguments do not fit it.
    ///
    /// - Parameters:
    ///   - predicateFormat: The format string.
    ///   - arguments: The arguments for the format specifiers, in order.
    /// - Throws: An `NSError` in `NSCocoaErrorDomain` with code `NSFormattingError` (2048).
    public convenience init(validatingFormat predicateFormat: String, argumentArray arguments: [Any]?) throws {
        let node = try PredicateParser.parsePredicate(predicateFormat, arguments: arguments ?? []).get()
        self.init(node: node)
    }

    /// Creates a predicate that always evaluates to the given value.
    ///
    /// - Parameter value: The value the predicate evaluates to: `TRUEPREDICATE` or `FALSEPREDICATE`.
    public convenience init(value: Bool) {
        self.init(node: .constant(value))
    }

    /// Creates a predicate that evaluates a closure.
    ///
    /// Block predicates work with in-memory filtering and the in-memory store; a fetch from a
    /// SQLite store fails with an error, as Apple's SQLite store does not support them either.
    ///
    /// - Parameter block: The closure, called with the object to evaluate and the substitution
    ///   variables; it returns whether the object matches.
    public convenience init(block: @escaping (Any?, [String: Any]?) -> Bool) {
        self.init(node: .block(PredicateBlock(block)))
    }

    /// Allows evaluation of a predicate that was decoded from an archive. Predicates made in code
    /// or from format strings can always be evaluated, so this does nothing.
    open func allowEvaluation() {}

    /// Returns a Boolean value that indicates whether the object matches the conditions the
    /// predicate specifies.
    ///
    /// - Parameter object: The object to evaluate: a managed object, a dictionary, a collection, or
    ///   any value the predicate's key paths can read.
    /// - Returns: `true` if the object matches; `false` if it does not, or if the predicate cannot
    ///   be evaluated for it (an unknown key, an unbound variable, an invalid format string).
    open func evaluate(with object: Any?) -> Bool {
        evaluate(with: object, substitutionVariables: nil)
    }

    /// Returns a Boolean value that indicates whether the object matches the conditions the
    /// predicate specifies after substituting in the values from a variables dictionary.
    ///
    /// - Parameters:
    ///   - object: The object to evaluate.
    ///   - bindings: The values of the predicate's `$variables`, by name without the `$`. To match
    ///     null, bind a variable to `NSNull()`.
    /// - Returns: `true` if the object matches; `false` otherwise or if evaluation fails.
    open func evaluate(with object: Any?, substitutionVariables bindings: [String: Any]?) -> Bool {
        (try? evaluate(with: object, variables: bindings ?? [:])) ?? false
    }

    /// Evaluates the predicate, throwing instead of answering false when it cannot be evaluated:
    /// the parse error of an invalid format string, or a `PredicateEvaluationError`, or an error
    /// a `KeyValueCodingReadable` object threw for an unknown key.
    func evaluate(with object: Any?, variables: [String: Any]) throws -> Bool {
        if let parseError {
            throw parseError
        }
        return try PredicateEvaluator(variables: variables).evaluate(node, with: object)
    }

    /// Returns a copy of the predicate with its variables replaced by the values in a dictionary.
    ///
    /// Variables the dictionary does not name stay variables. A value that is an `NSExpression`
    /// replaces the variable by that expression; `NSNull` replaces it by a null constant.
    ///
    /// - Parameter variables: Values by variable name, without the `$`.
    /// - Returns: The predicate with the values substituted.
    open func withSubstitutionVariables(_ variables: [String: Any]) -> Self {
        let substituted = NSPredicate.make(node: node.substitutingVariables(variables), parseError: parseError)
        return substituted as? Self ?? self
    }

    /// The predicate's canonical format string, such as `name BEGINSWITH[c] "a" AND age > 3`.
    ///
    /// Parsing the format string again gives an equal predicate.
    open var predicateFormat: String {
        PredicateFormatPrinter.format(node)
    }

    /// The predicate's format string; the same as `predicateFormat`.
    open override var description: String {
        predicateFormat
    }

    /// Predicates are equal when they have the same structure: the same operators, options and
    /// operands, with constants compared by value.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSPredicate else { return false }
        return node == other.node && parseError?.localizedDescription == other.parseError?.localizedDescription
    }

    /// A hash value consistent with `isEqual(_:)`.
    open override var hash: Int {
        node.hashValue
    }

    /// Returns the predicate itself: predicates are immutable.
    open func copy(with zone: NSZone? = nil) -> Any {
        self
    }
}
