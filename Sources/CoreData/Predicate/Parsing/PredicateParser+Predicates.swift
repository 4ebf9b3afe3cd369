extension PredicateParser {
    /// `predicate ::= and_pred { ("OR" | "||") and_pred }`
    ///
    /// A chain `a OR b OR c` becomes one compound with three operands, so that long generated
    /// chains do not become deep trees; parentheses written in the format keep their nesting.
    mutating func parsePredicate() throws(PredicateSyntaxError) -> PredicateNode {
        var operands = [try parseAnd()]
        while consume(.or) || consume(.doublePipe) {
            operands.append(try parseAnd())
        }
        return operands.count == 1 ? operands[0] : .compound(.or, operands)
    }

    /// `and_pred ::= not_pred { ("AND" | "&&") not_pred }`, flattened like `OR`.
    private mutating func parseAnd() throws(PredicateSyntaxError) -> PredicateNode {
        var operands = [try parseNot()]
        while consume(.and) || consume(.doubleAmpersand) {
            operands.append(try parseNot())
        }
        return operands.count == 1 ? operands[0] : .compound(.and, operands)
    }

    /// `not_pred ::= ("NOT" | "!") not_pred | primary_pred`; NOT binds tighter than AND and OR.
    private mutating func parseNot() throws(PredicateSyntaxError) -> PredicateNode {
        try enterNestedProduction()
        defer { leaveNestedProduction() }
        if consume(.not) || consume(.exclamation) {
            return .compound(.not, [try parseNot()])
        }
        return try parsePrimaryPredicate()
    }

    /// `primary_pred ::= "TRUEPREDICATE" | "FALSEPREDICATE" | "(" predicate ")" | comparison`
    private mutating func parsePrimaryPredicate() throws(PredicateSyntaxError) -> PredicateNode {
        if consume(.truePredicate) { return .constant(true) }
        if consume(.falsePredicate) { return .constant(false) }
        if case .symbol(.openParenthesis) = current.kind {
            return try parseParenthesizedPredicateOrComparison()
        }
        return try parseComparison()
    }

    /// `(` starts either a parenthesised predicate, `(a < 1 OR b > 2)`, or a comparison whose left
    /// side is parenthesised, `(a) == 1`. Try the predicate first; if it fails, or if what follows
    /// the `)` continues an expression, read the tokens again as a comparison. When both readings
    /// fail, report the one that got further.
    private mutating func parseParenthesizedPredicateOrComparison() throws(PredicateSyntaxError) -> PredicateNode {
        let start = index
        let predicateError: PredicateSyntaxError
        do throws(PredicateSyntaxError) {
            advance()
            let predicate = try parsePredicate()
            try expect(.closeParenthesis, "to close the '(' of the predicate")
            if !Self.continuesExpression(current.kind) {
                return predicate
            }
            predicateError = unexpected("AND, OR, ')' or the end of the predicate")
        } catch {
            predicateError = error
        }
        backtrack(to: start)
        do throws(PredicateSyntaxError) {
            return try parseComparison()
        } catch {
            throw error.offset >= predicateError.offset ? error : predicateError
        }
    }

    /// Whether a token after `)` shows that the parentheses enclosed an expression, not a predicate.
    private static func continuesExpression(_ kind: FormatTokenKind) -> Bool {
        if comparisonOperator(kind) != nil { return true }
        switch kind {
        case .symbol(let symbol): return [.dot, .openBracket].contains(symbol) || isArithmetic(symbol)
        case .keyword(let keyword): return [.union, .intersect, .minus].contains(keyword)
        default: return false
        }
    }

    static func isArithmetic(_ symbol: FormatSymbol) -> Bool {
        [.plus, .minus, .asterisk, .slash, .doubleAsterisk, .ampersand, .pipe, .caret, .shiftLeft, .shiftRight, .percent]
            .contains(symbol)
    }

    // MARK: Comparisons

    /// `comparison ::= [quantifier] expr operator [options] expr`
    ///
    /// `NONE p` becomes `NOT (ANY p)`, its documented equivalent.
    private mutating func parseComparison() throws(PredicateSyntaxError) -> PredicateNode {
        let (modifier, isNone) = parseQuantifier()
        let left = try parseExpression()
        if let selector = parseCustomSelector() {
            let right = try parseExpression()
            let node = ComparisonNode(left: left, right: right, operatorType: .customSelector, modifier: modifier, options: [], customSelector: selector)
            return isNone ? .compound(.not, [.comparison(node)]) : .comparison(node)
        }
        let operatorType = try parseComparisonOperator()
        let options = try parseOptions()
        let right = try parseExpression()
        let comparison = PredicateNode.comparison(
            ComparisonNode(left: left, right: right, operatorType: operatorType, modifier: modifier, options: options)
        )
        return isNone ? .compound(.not, [comparison]) : comparison
    }

    /// `selector ::= identifier ":"`: the operator of a custom-selector comparison, such as
    /// `SELF hasPrefix: "a"`; nil, consuming nothing, when the next tokens are not one.
    private mutating func parseCustomSelector() -> String? {
        guard case .identifier(let name) = current.kind else { return nil }
        let start = index
        advance()
        guard consume(FormatSymbol.colon) else {
            backtrack(to: start)
            return nil
        }
        return name + ":"
    }

    /// `quantifier ::= "ANY" | "SOME" | "ALL" | "NONE"`
    private mutating func parseQuantifier() -> (modifier: NSComparisonPredicate.Modifier, isNone: Bool) {
        if consume(.any) || consume(.some) { return (.any, false) }
        if consume(.all) { return (.all, false) }
        if consume(.none) { return (.any, true) }
        return (.direct, false)
    }

    private mutating func parseComparisonOperator() throws(PredicateSyntaxError) -> NSComparisonPredicate.Operator {
        if let operatorType = Self.comparisonOperator(current.kind) {
            advance()
            return operatorType
        }
        switch current.kind {
        case .keyword(.utiConformsTo), .keyword(.utiEquals):
            throw unsupported(current.kind.displayName)
        case .symbol(let symbol) where Self.isArithmetic(symbol):
            throw unsupported("arithmetic (\(current.kind.displayName))")
        default:
            throw unexpected("a comparison operator after \(previous?.kind.displayName ?? "the expression")")
        }
    }

    /// The operator a token spells; `=` and `==`, `!=` and `<>`, `=<` and `<=`, `=>` and `>=` are
    /// the same operator.
    static func comparisonOperator(_ kind: FormatTokenKind) -> NSComparisonPredicate.Operator? {
        switch kind {
        case .symbol(.equal), .symbol(.singleEqual): .equalTo
        case .symbol(.notEqual), .symbol(.angleNotEqual): .notEqualTo
        case .symbol(.lessThan): .lessThan
        case .symbol(.lessThanOrEqual), .symbol(.reversedLessThanOrEqual): .lessThanOrEqualTo
        case .symbol(.greaterThan): .greaterThan
        case .symbol(.greaterThanOrEqual), .symbol(.reversedGreaterThanOrEqual): .greaterThanOrEqualTo
        case .keyword(.beginsWith): .beginsWith
        case .keyword(.endsWith): .endsWith
        case .keyword(.contains): .contains
        case .keyword(.like): .like
        case .keyword(.matches): .matches
        case .keyword(.in): .in
        case .keyword(.between): .between
        default: nil
        }
    }

    /// `options ::= "[" ("c" | "d" | "n" | "l")+ "]"`, right after the operator.
    private mutating func parseOptions() throws(PredicateSyntaxError) -> NSComparisonPredicate.Options {
        guard consume(.openBracket) else { return [] }
        guard case .identifier(let letters) = current.kind else {
            throw unexpected("comparison options (c, d, n or l) after '['")
        }
        var options: NSComparisonPredicate.Options = []
        for letter in letters.lowercased() {
            guard let option = Self.comparisonOption(letter) else {
                throw PredicateSyntaxError(
                    offset: current.offset,
                    reason: "unknown comparison option '\(letter)' in [\(letters)]: expected c, d, n or l"
                )
            }
            options.insert(option)
        }
        advance()
        try expect(.closeBracket, "to close the comparison options")
        return options
    }

    private static func comparisonOption(_ letter: Character) -> NSComparisonPredicate.Options? {
        switch letter {
        case "c": .caseInsensitive
        case "d": .diacriticInsensitive
        case "n": .normalized
        case "l": .localeSensitive
        default: nil
        }
    }
}
