extension PredicateParser {
    /// `expr ::= setop_expr`: the top of the expression grammar (spec §2.1). From the loosest to
    /// the tightest binding: `UNION INTERSECT MINUS`, then `| ^ & << >>`, then `+ -`, then
    /// `* /`, then `**`, then unary `-` and `~`, then `.key` and `[index]`. Every binary level is
    /// left-associative: `1 + 1 + 1` is `(1 + 1) + 1`. Each link of such a chain nests the tree
    /// one level deeper, so it counts against the nesting limit like a parenthesis.
    mutating func parseExpression() throws(PredicateSyntaxError) -> ExpressionNode {
        try enterNestedProduction()
        defer { leaveNestedProduction() }
        return try parseSetOperation()
    }

    /// `setop_expr ::= bit_expr { ("UNION" | "INTERSECT" | "MINUS") bit_expr }`
    private mutating func parseSetOperation() throws(PredicateSyntaxError) -> ExpressionNode {
        var expression = try parseBinary(level: 0)
        var links = 0
        defer { leaveNestedProductions(links) }
        while let operation = Self.setOperation(current.kind) {
            try enterNestedProduction()
            links += 1
            advance()
            expression = .setOperation(operation, expression, try parseBinary(level: 0))
        }
        return expression
    }

    private static func setOperation(_ kind: FormatTokenKind) -> SetOperation? {
        switch kind {
        case .keyword(.union): .union
        case .keyword(.intersect): .intersect
        case .keyword(.minus): .minus
        default: nil
        }
    }

    /// The binary operators by precedence level, loosest first.
    private static let binaryLevels: [[FormatSymbol: ExpressionFunction]] = [
        [.pipe: .bitwiseOr, .caret: .bitwiseXor, .ampersand: .bitwiseAnd, .shiftLeft: .leftShift, .shiftRight: .rightShift],
        [.plus: .add, .minus: .subtract],
        [.asterisk: .multiply, .slash: .divide],
        [.doubleAsterisk: .power],
    ]

    /// One left-associative level of binary operators, `operand { operator operand }`.
    private mutating func parseBinary(level: Int) throws(PredicateSyntaxError) -> ExpressionNode {
        guard level < Self.binaryLevels.count else { return try parseUnary() }
        var expression = try parseBinary(level: level + 1)
        var links = 0
        defer { leaveNestedProductions(links) }
        while case .symbol(let symbol) = current.kind, let function = Self.binaryLevels[level][symbol] {
            try enterNestedProduction()
            links += 1
            advance()
            expression = .function(function, [expression, try parseBinary(level: level + 1)])
        }
        return expression
    }

    /// `unary ::= "-" unary | "~" unary | postfix`. A minus sign before a number literal makes a
    /// negative constant; before anything else it multiplies by -1.
    private mutating func parseUnary() throws(PredicateSyntaxError) -> ExpressionNode {
        if consume(FormatSymbol.tilde) {
            try enterNestedProduction()
            defer { leaveNestedProduction() }
            return .function(.onesComplement, [try parseUnary()])
        }
        guard consume(FormatSymbol.minus) else { return try parsePostfix() }
        switch current.kind {
        case .integer(let value):
            advance()
            return try parsePostfix(startingWith: .constant(ConstantValue(NSNumber(value: -value))))
        case .decimal(let value):
            advance()
            return try parsePostfix(startingWith: .constant(ConstantValue(NSNumber(value: -value))))
        default:
            try enterNestedProduction()
            defer { leaveNestedProduction() }
            return .function(.multiply, [try parseUnary(), .constant(ConstantValue(NSNumber(value: -1)))])
        }
    }

    /// `postfix ::= primary { "." key_component | "[" index "]" }`
    ///
    /// A key read from a key path extends that path (`a.b.c` is one path); a key read from any
    /// other expression starts a path based on it (`SELF.name`, `$person.name`, `a[0].name`).
    private mutating func parsePostfix(startingWith primary: ExpressionNode? = nil) throws(PredicateSyntaxError) -> ExpressionNode {
        var expression: ExpressionNode
        if let primary {
            expression = primary
        } else {
            expression = try parsePrimary()
        }
        var links = 0
        defer { leaveNestedProductions(links) }
        while true {
            if consume(.dot) {
                expression = try parseKeyComponents(of: expression)
            } else if consume(.openBracket) {
                try enterNestedProduction()
                links += 1
                let index = try parseIndex()
                try expect(.closeBracket, "to close the index")
                expression = .function(.index, [expression, index])
            } else {
                return expression
            }
        }
    }

    /// `index ::= "FIRST" | "LAST" | "SIZE" | expr`
    private mutating func parseIndex() throws(PredicateSyntaxError) -> ExpressionNode {
        let symbol: IndexSymbol? = switch current.kind {
        case .keyword(.first): .first
        case .keyword(.last): .last
        case .keyword(.size): .size
        default: nil
        }
        guard let symbol else { return try parseExpression() }
        advance()
        return .indexSymbol(symbol)
    }

    /// `key_component { "." key_component }`, read from `expression`, where `key_component ::=
    /// identifier | "#" reserved_word | "@" identifier | variable`. A variable names the key at
    /// evaluation time (`$a.$b`) and ends the run.
    ///
    /// The keys of a run are collected first and added to the path at once, so that reading a
    /// path takes time in proportion to its length.
    private mutating func parseKeyComponents(of expression: ExpressionNode) throws(PredicateSyntaxError) -> ExpressionNode {
        var keys: [String] = []
        repeat {
            switch current.kind {
            case .identifier(let name), .collectionOperator(let name):
                advance()
                keys.append(name)
            case .variable(let name):
                advance()
                return .variableKeyPath(base: expression.appendingKeys(keys), variable: name)
            case .keyword(let keyword):
                throw reservedWordAsKey(keyword)
            default:
                throw unexpected("a key after '.'")
            }
        } while consume(.dot)
        return expression.appendingKeys(keys)
    }

    /// `primary ::= literal | "SELF" | variable | format_arg | key | function_call | "{" … "}"
    /// | "(" expr ")" | FUNCTION(…) | CAST(…) | TERNARY(…) | SUBQUERY(…) | "ANYKEY"`
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
        case .keyword(.anyKey):
            advance()
            return .anyKey
        case .keyword(.function), .keyword(.cast), .keyword(.ternary), .keyword(.subquery):
            return try parseSpecialForm()
        case .variable(let name):
            advance()
            return .variable(name)
        case .argument(let expression):
            advance()
            return expression
        case .identifier(let name):
            advance()
            if case .symbol(.openParenthesis) = current.kind {
                return try parseFunctionCall(named: name)
            }
            if case .symbol(.colon) = current.kind {
                return try parseSelectorCall(startingWith: name)
            }
            return .keyPath(base: nil, components: [name])
        case .collectionOperator(let name):
            advance()
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
        if consume(.closeBrace) {
            return .aggregate([])
        }
        let elements = try parseExpressionList()
        try expect(.closeBrace, "or ',' in the collection")
        return .aggregate(elements)
    }

    /// `expr { "," expr }`
    private mutating func parseExpressionList() throws(PredicateSyntaxError) -> [ExpressionNode] {
        var elements: [ExpressionNode] = []
        repeat {
            elements.append(try parseExpression())
        } while consume(.comma)
        return elements
    }

    /// `"(" [ expr { "," expr } ] ")"`: the arguments of a call, after its name.
    private mutating func parseArguments(of callee: String) throws(PredicateSyntaxError) -> [ExpressionNode] {
        try expect(.openParenthesis, "after \(callee)")
        if consume(.closeParenthesis) {
            return []
        }
        let arguments = try parseExpressionList()
        try expect(.closeParenthesis, "or ',' in the arguments of \(callee)")
        return arguments
    }

    // MARK: Functions

    /// `name(arguments)`: a built-in function called by name, such as `sum({1, 2})` or `now()`.
    private mutating func parseFunctionCall(named name: String) throws(PredicateSyntaxError) -> ExpressionNode {
        let start = previous?.offset ?? current.offset
        let arguments = try parseArguments(of: "'\(name)'")
        guard let function = ExpressionFunction(name: name, argumentCount: arguments.count) else {
            throw PredicateSyntaxError(offset: start, reason: Self.unknownFunction(name, argumentCount: arguments.count))
        }
        return .function(function, arguments)
    }

    /// `selector_name(arguments)`: a built-in function called by its selector, such as
    /// `multiply:by:(5, 3)` or `sum:({1, 2})`.
    private mutating func parseSelectorCall(startingWith name: String) throws(PredicateSyntaxError) -> ExpressionNode {
        let start = previous?.offset ?? current.offset
        var selector = name
        while consume(FormatSymbol.colon) {
            selector += ":"
            guard case .identifier(let part) = current.kind else { break }
            advance()
            selector += part
        }
        let arguments = try parseArguments(of: "'\(selector)'")
        guard let function = ExpressionFunction(selector: selector), function.arity == arguments.count else {
            throw PredicateSyntaxError(offset: start, reason: Self.unknownFunction(selector, argumentCount: arguments.count))
        }
        return .function(function, arguments)
    }

    private static func unknownFunction(_ name: String, argumentCount: Int) -> String {
        let known = ExpressionFunction.allCases.map(\.selector).filter { $0.hasPrefix(name) }
        let detail = known.isEmpty ? "" : " (the built-in \(known.joined(separator: ", ")) takes \(known.map { "\(ExpressionFunction(selector: $0)?.arity ?? 0)" }.joined(separator: " or ")))"
        return "'\(name)' with \(argumentCount) argument\(argumentCount == 1 ? "" : "s") is not a built-in function\(detail)"
    }

    /// `FUNCTION(receiver, "selector", args…)`, `CAST(value, "type")`,
    /// `TERNARY(predicate, whenTrue, whenFalse)` and `SUBQUERY(collection, $variable, predicate)`.
    private mutating func parseSpecialForm() throws(PredicateSyntaxError) -> ExpressionNode {
        guard case .keyword(let keyword) = current.kind else { throw unexpected("an expression") }
        advance()
        let name = keyword.rawValue
        try expect(.openParenthesis, "after \(name)")
        let expression: ExpressionNode
        switch keyword {
        case .subquery:
            let collection = try parseExpression()
            try expect(.comma, "after the collection of SUBQUERY")
            guard case .variable(let variable) = current.kind else { throw unexpected("a $variable as the second argument of SUBQUERY") }
            advance()
            try expect(.comma, "after the variable of SUBQUERY")
            expression = .subquery(collection: collection, variable: variable, predicate: try parsePredicate())
        case .ternary:
            let condition = try parsePredicate()
            try expect(.comma, "after the condition of TERNARY")
            let whenTrue = try parseExpression()
            try expect(.comma, "after the second argument of TERNARY")
            expression = .conditional(condition, whenTrue, try parseExpression())
        case .cast:
            let value = try parseExpression()
            try expect(.comma, "after the value of CAST")
            expression = .function(.cast, [value, try parseExpression()])
        default:
            let receiver = try parseExpression()
            try expect(.comma, "after the receiver of FUNCTION")
            guard case .string(let selector) = current.kind, !selector.isEmpty else { throw unexpected("a selector name string as the second argument of FUNCTION") }
            advance()
            var arguments: [ExpressionNode] = []
            while consume(.comma) {
                arguments.append(try parseExpression())
            }
            expression = .method(receiver: receiver, selector: selector, arguments: arguments)
        }
        try expect(.closeParenthesis, "to close \(name)(…)")
        return expression
    }

    private func reservedWordInExpression(_ keyword: FormatKeyword) -> PredicateSyntaxError {
        switch keyword {
        case .fetch:
            unsupported(current.kind.displayName)
        case .first, .last, .size:
            PredicateSyntaxError(
                offset: current.offset,
                reason: "'\(keyword.rawValue)' is an index (write a[\(keyword.rawValue)]) or a reserved word; write #\(keyword.rawValue.lowercased()) to use it as a key"
            )
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
