/// Replaces the format specifiers of a token list by the arguments they take, left to right
/// (spec §1.9).
///
/// Binding happens before parsing so that the parser, which may backtrack, never consumes an
/// argument twice. Every specifier must have an argument of the right kind; a mismatch is a
/// syntax error pointing at the specifier. Arguments beyond the last specifier are ignored, as
/// Apple's parser ignores them: `lastName LIKE '%@'` with one argument compares with the literal
/// text `%@`, since a quoted specifier takes no argument.
struct FormatArgumentBinder {
    private var arguments: IndexingIterator<[Any]>
    private var argumentNumber = 0
    private let argumentCount: Int

    private init(arguments: [Any]) {
        self.arguments = arguments.makeIterator()
        argumentCount = arguments.count
    }

    /// `tokens` with each `.formatSpecifier` replaced by an `.argument` (or by `%` for `%%`).
    static func bind(_ tokens: [FormatToken], arguments: [Any]) throws(PredicateSyntaxError) -> [FormatToken] {
        var binder = FormatArgumentBinder(arguments: arguments)
        var bound: [FormatToken] = []
        bound.reserveCapacity(tokens.count)
        for token in tokens {
            bound.append(try binder.bind(token))
        }
        return bound
    }

    private mutating func bind(_ token: FormatToken) throws(PredicateSyntaxError) -> FormatToken {
        guard case .formatSpecifier(let specifier) = token.kind else { return token }
        if specifier == .percent {
            return FormatToken(kind: .symbol(.percent), offset: token.offset)
        }
        guard let argument = arguments.next() else {
            throw PredicateSyntaxError(
                offset: token.offset,
                reason: "missing argument for \(specifier.spelling): the format needs more than the \(argumentCount) given"
            )
        }
        argumentNumber += 1
        let expression = try Self.expression(for: argument, specifier: specifier, number: argumentNumber, at: token.offset)
        return FormatToken(kind: .argument(expression), offset: token.offset)
    }

    // MARK: Converting arguments

    private static func expression(for argument: Any, specifier: FormatSpecifier, number: Int, at offset: Int) throws(PredicateSyntaxError) -> ExpressionNode {
        let value = ValueUnwrapping.unwrapped(argument)
        if let expression = value as? NSExpression, let parseError = expression.parseError {
            throw PredicateSyntaxError(offset: offset, reason: "argument \(number) is an expression that failed to parse: \(parseError.localizedDescription)")
        }
        let converted: ExpressionNode? = switch specifier {
        case .object: objectExpression(value)
        case .keyPath: keyPathExpression(value)
        case .integer: integerExpression(value)
        case .double: doubleExpression(value)
        case .string: (value as? String).map { .constant(ConstantValue($0)) }
        case .percent: nil
        }
        guard let converted else {
            let found = value.map { "\(type(of: $0))" } ?? "nil"
            throw PredicateSyntaxError(offset: offset, reason: "argument \(number) does not fit \(specifier.spelling): \(expectation(for: specifier)), found \(found)")
        }
        return converted
    }

    private static func expectation(for specifier: FormatSpecifier) -> String {
        switch specifier {
        case .object: "expected an object other than a predicate"
        case .keyPath: "expected a non-empty key path string"
        case .integer: "expected an integer"
        case .double: "expected a number"
        case .string, .percent: "expected a string"
        }
    }

    /// `%@`: an `NSExpression` is spliced in, nil becomes the nil constant, a predicate is refused.
    private static func objectExpression(_ value: Any?) -> ExpressionNode? {
        if let expression = value as? NSExpression {
            return expression.node
        }
        if value is NSPredicate {
            return nil
        }
        return .constant(ConstantValue(value))
    }

    /// `%K`: a dotted string becomes a multi-component key path.
    private static func keyPathExpression(_ value: Any?) -> ExpressionNode? {
        guard let path = value as? String, !path.isEmpty else { return nil }
        return .keyPath(base: nil, components: path.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
    }

    private static func integerExpression(_ value: Any?) -> ExpressionNode? {
        guard let value, let integer = PredicateNumber(value)?.exactInteger else { return nil }
        return .constant(ConstantValue(NSNumber(value: integer)))
    }

    private static func doubleExpression(_ value: Any?) -> ExpressionNode? {
        guard let value, let number = PredicateNumber(value) else { return nil }
        return .constant(ConstantValue(NSNumber(value: number.doubleValue)))
    }
}
