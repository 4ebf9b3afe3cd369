/// What a token of a format string is.
enum FormatTokenKind {
    /// A key: a plain identifier that is not reserved, or any word escaped with `#`.
    case identifier(String)
    /// A reserved word.
    case keyword(FormatKeyword)
    /// A collection operator key, with its `@` (`@count`).
    case collectionOperator(String)
    /// `$name`, without the `$`.
    case variable(String)
    /// A quoted string, with escapes already applied.
    case string(String)
    case integer(Int64)
    case decimal(Double)
    case symbol(FormatSymbol)
    /// A `%` conversion, before `FormatArgumentBinder` replaces it by its argument.
    case formatSpecifier(FormatSpecifier)
    /// The expression a format argument stands for (a constant, a key path, or a spliced
    /// `NSExpression`).
    case argument(ExpressionNode)
    /// The end of the format string.
    case end

    /// How the token is named in error messages.
    var displayName: String {
        switch self {
        case .identifier(let name): "'\(name)'"
        case .keyword(let keyword): "'\(keyword.rawValue)'"
        case .collectionOperator(let name): "'\(name)'"
        case .variable(let name): "'$\(name)'"
        case .string(let text): "the string \"\(text)\""
        case .integer(let value): "the number \(value)"
        case .decimal(let value): "the number \(value)"
        case .symbol(let symbol): "'\(symbol.rawValue)'"
        case .formatSpecifier(let specifier): "'\(specifier.spelling)'"
        case .argument: "a format argument"
        case .end: "the end of the format string"
        }
    }
}
