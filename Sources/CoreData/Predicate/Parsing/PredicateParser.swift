/// A recursive-descent parser for predicate and expression format strings (spec §2).
///
/// Each grammar production is one method, from `parsePredicate()` (`OR`, lowest precedence) down to
/// `parsePrimary()`, so the remaining productions of the full grammar (arithmetic, functions,
/// `SUBQUERY`, indexes) slot in as new methods between existing ones. The tokens arrive with format
/// arguments already bound, so the parser can backtrack freely.
struct PredicateParser {
    private let tokens: [FormatToken]
    private(set) var index = 0
    /// How many nested productions (`NOT`, parentheses, aggregates) enclose the current token.
    private var depth = 0

    /// The deepest nesting accepted. Recursive descent uses the stack, and a format string must
    /// not be able to overflow it; real predicates nest a few levels.
    static let maximumDepth = 100

    private init(format: String, arguments: [Any]) throws(PredicateSyntaxError) {
        tokens = try FormatArgumentBinder.bind(FormatTokenizer.tokenize(format), arguments: arguments)
    }

    /// Parses a predicate format string such as `name BEGINSWITH[c] %@ AND age > 3`.
    static func parsePredicate(_ format: String, arguments: [Any]) -> Result<PredicateNode, NSError> {
        do throws(PredicateSyntaxError) {
            var parser = try PredicateParser(format: format, arguments: arguments)
            let predicate = try parser.parsePredicate()
            try parser.expectEnd(of: "predicate")
            return .success(predicate)
        } catch {
            return .failure(error.nsError(format: format))
        }
    }

    /// Parses an expression format string such as `employees.@count` or `{1, 2}`.
    static func parseExpression(_ format: String, arguments: [Any]) -> Result<ExpressionNode, NSError> {
        do throws(PredicateSyntaxError) {
            var parser = try PredicateParser(format: format, arguments: arguments)
            let expression = try parser.parseExpression()
            try parser.expectEnd(of: "expression")
            return .success(expression)
        } catch {
            return .failure(error.nsError(format: format))
        }
    }

    // MARK: Nesting

    /// Counts one more level of nesting, failing beyond `maximumDepth`.
    mutating func enterNestedProduction() throws(PredicateSyntaxError) {
        guard depth < Self.maximumDepth else {
            throw PredicateSyntaxError(offset: current.offset, reason: "the format nests more than \(Self.maximumDepth) levels deep")
        }
        depth += 1
    }

    mutating func leaveNestedProduction() {
        depth -= 1
    }

    /// Leaves `count` levels entered by the links of a chain (`a + b + c`, `a[0][1]`).
    mutating func leaveNestedProductions(_ count: Int) {
        depth -= count
    }

    // MARK: Reading tokens

    /// The token being looked at; the last token is always `.end`, which is never passed.
    var current: FormatToken {
        tokens[Swift.min(index, tokens.count - 1)]
    }

    /// The token just passed, for messages such as "after '=='".
    var previous: FormatToken? {
        index > 0 ? tokens[index - 1] : nil
    }

    mutating func advance() {
        if index < tokens.count - 1 { index += 1 }
    }

    /// Moves back to an earlier position, to try another reading of the same tokens.
    mutating func backtrack(to position: Int) {
        index = position
    }

    /// Whether the current token is `symbol`; consumes it if so.
    mutating func consume(_ symbol: FormatSymbol) -> Bool {
        guard case .symbol(symbol) = current.kind else { return false }
        advance()
        return true
    }

    /// Whether the current token is `keyword`; consumes it if so.
    mutating func consume(_ keyword: FormatKeyword) -> Bool {
        guard case .keyword(keyword) = current.kind else { return false }
        advance()
        return true
    }

    mutating func expect(_ symbol: FormatSymbol, _ context: String) throws(PredicateSyntaxError) {
        guard consume(symbol) else { throw unexpected("'\(symbol.rawValue)' \(context)") }
    }

    private func expectEnd(of what: String) throws(PredicateSyntaxError) {
        guard case .end = current.kind else {
            throw unexpected("the end of the \(what)")
        }
    }

    /// An error at the current token: "expected \(expectation), found …".
    func unexpected(_ expectation: String) -> PredicateSyntaxError {
        PredicateSyntaxError(offset: current.offset, reason: "expected \(expectation), found \(current.kind.displayName)")
    }

    /// An error at the current token for a construct this version does not implement.
    func unsupported(_ construct: String) -> PredicateSyntaxError {
        PredicateSyntaxError(offset: current.offset, reason: "\(construct) is not supported")
    }
}
