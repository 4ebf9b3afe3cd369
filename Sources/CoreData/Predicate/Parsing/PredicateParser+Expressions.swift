extension PredicateParser {
    /// `expr`: the top of the expression grammar.
    ///
    /// The binary operator levels of the full grammar (set operations, bitwise, `+ -`, `* /`, `**`)
    /// belong between this method and `parseUnary()`.
    mutating func parseExpression() throws(PredicateSyntaxError) -> ExpressionNode {
        try enterNestedProduction()
        defer { leaveNestedProduction() }
        return try parseUnary()
    }

    /// `unary ::= "-" number | postfix`: a minus sign negates a number literal.
    private mutating func parseUnary() throws(PredicateSyntaxError) -> ExpressionNode {
        guard consume(FormatSymbol.minus) else { return try parsePostfix() }
        switch current.kind {
        case .integer(let value):
            advance()
            return .constant(ConstantValue(NSNumber(value: -value)))
        case .decimal(let value):
            advance()
            return .constant(ConstantValue(NSNumber(value: -value)))
        default:
            throw unsupported("arithmetic negation of \(current.kind.displayName)")
        }
    }

    /// `postfix ::= primary { "." key_component }`
    ///
    /// A key read from a key path extends that path (`a.b.c` is one path); a key read from any
    /// other expression starts a path based on it (`SELF.name`, `$person.name`).
    private mutating func parsePostfix() throws(PredicateSyntaxError) -> ExpressionNode {
        var expression = try parsePrimary()
        while true {
            if consume(.dot) {
                expression = Self.appending(try parseKeyComponent(), to: expression)
            } else if case .symbol(.openBracket) = current.kind {
                throw unsupported("indexing with '['")
            } else {
                return expression
            }
        }
    }

    private static func appending(_ key: String, to expression: ExpressionNode) -> ExpressionNode {
        if case .keyPath(let base, let components) = expression {
            return .keyPath(base: base, components: components + [key])
        }
        return .keyPath(base: expression, components: [key])
    }

    /// `key_component ::= identifier | "#" reserved_word | "@" identifier`
    private mutating func parseKeyComponent() throws(PredicateSyntaxError) -> String {
        switch current.kind {
        case .identifier(let name), .collectionOperator(let name):
            advance()
            return name
        case .keyword(let keyword):
            throw reservedWordAsKey(keyword)
        default:
            throw unexpected("a key after '.'")
        }
    }

    /// `primary ::= literal | "SELF" | variable | format_arg | key | "{" … "}" | "(" expr ")"`
    private mutating func parsePrimary() throws(PredicateSyntaxError) -> ExpressionNode {
        let kind = current.kind
        if let literal = Self.literal(kind) {
            advance()
            return literal
        }
        switch kind {
        case .keyword(.self):
            advance()
            return .evaluatedObject
        case .variable(let name):
            advance()
            return .variable(name)
        case .argument(let expression):
            advance()
            return expression
        case .identifier(let name), .collectionOperator(let name):
            advance()
            if case .symbol(.openParenthesis) = current.kind {
                throw unsupported("the function call \(name)(…)")
            }
            return .keyPath(base: nil, components: [name])
        case .symbol(.openBrace):
            return try parseAggregate()
        case .symbol(.openParenthesis):
            advance()
            let expression = try parseExpression()
            try expect(.closeParenthesis, "to close the '(' of the expression")
            return expression
        case .keyword(let keyword):
            throw reservedWordInExpression(keyword)
        default:
            throw unexpected("an expression\(previous.map { " after \($0.kind.displayName)" } ?? "")")
        }
    }

    /// Strings, numbers, `TRUE`/`YES`, `FALSE`/`NO`, `NIL`/`NULL`.
    private static func literal(_ kind: FormatTokenKind) -> ExpressionNode? {
        switch kind {
        case .string(let text): .constant(ConstantValue(text))
        case .integer(let value): .constant(ConstantValue(NSNumber(value: value)))
        case .decimal(let value): .constant(ConstantValue(NSNumber(value: value)))
        case .keyword(.true), .keyword(.yes): .constant(ConstantValue(NSNumber(value: true)))
        case .keyword(.false), .keyword(.no): .constant(ConstantValue(NSNumber(value: false)))
        case .keyword(.nil), .keyword(.null): .constant(ConstantValue(nil))
        default: nil
        }
    }

    /// `"{" [ expr { "," expr } ] "}"`
    private mutating func parseAggregate() throws(PredicateSyntaxError) -> ExpressionNode {
        advance()
        var elements: [ExpressionNode] = []
        if consume(.closeBrace) {
            return .aggregate(elements)
        }
        repeat {
            elements.append(try parseExpression())
        } while consume(.comma)
        try expect(.closeBrace, "or ',' in the collection")
        return .aggregate(elements)
    }

    private func reservedWordInExpression(_ keyword: FormatKeyword) -> PredicateSyntaxError {
        switch keyword {
        case .subquery, .function, .cast, .ternary, .fetch, .anyKey:
            unsupported(current.kind.displayName)
        case .first, .last, .size:
            reservedWordAsKey(keyword)
        default:
            unexpected("an expression\(previous.map { " after \($0.kind.displayName)" } ?? "")")
        }
    }

    private func reservedWordAsKey(_ keyword: FormatKeyword) -> PredicateSyntaxError {
        PredicateSyntaxError(
            offset: current.offset,
            reason: "'\(keyword.rawValue)' is a reserved word; write #\(keyword.rawValue.lowercased()) to use it as a key"
        )
    }
}
