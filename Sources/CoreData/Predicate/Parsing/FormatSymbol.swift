/// The punctuation and operator tokens of the format language (spec §1.7).
///
/// The tokenizer always takes the longest spelling that matches, so `<=` is never read as `<`
/// followed by `=`.
enum FormatSymbol: String, CaseIterable {
    case equal = "=="
    case singleEqual = "="
    case notEqual = "!="
    case angleNotEqual = "<>"
    case lessThan = "<"
    case lessThanOrEqual = "<="
    case reversedLessThanOrEqual = "=<"
    case greaterThan = ">"
    case greaterThanOrEqual = ">="
    case reversedGreaterThanOrEqual = "=>"
    case doubleAmpersand = "&&"
    case doublePipe = "||"
    case exclamation = "!"
    case openParenthesis = "("
    case closeParenthesis = ")"
    case openBrace = "{"
    case closeBrace = "}"
    case openBracket = "["
    case closeBracket = "]"
    case comma = ","
    case dot = "."
    case plus = "+"
    case minus = "-"
    case asterisk = "*"
    case slash = "/"
    case doubleAsterisk = "**"
    case ampersand = "&"
    case pipe = "|"
    case caret = "^"
    case tilde = "~"
    case shiftLeft = "<<"
    case shiftRight = ">>"
    case assign = ":="
    case colon = ":"
    /// A literal `%`, written `%%` in a format string.
    case percent = "%"

    /// The symbols the tokenizer can read, by their first character, longest spelling first.
    /// (`%` is not among them: it always starts a format specifier.)
    static let candidatesByFirstScalar: [Unicode.Scalar: [FormatSymbol]] = Dictionary(
        grouping: allCases.filter { $0 != .percent }.sorted { $0.rawValue.count > $1.rawValue.count },
        by: { $0.rawValue.unicodeScalars.first ?? " " }
    )
}
