/// Splits a format string into tokens (spec §1).
///
/// Works on Unicode scalars: every character the grammar cares about is one scalar, and offsets in
/// scalars are cheap to convert for error messages. Format specifiers are recognised here but their
/// arguments are bound later, by `FormatArgumentBinder`; inside quotes they are plain text.
struct FormatTokenizer {
    /// The format string being read; shared with the literal readers in `FormatTokenizer+Literals`.
    let scalars: [Unicode.Scalar]
    /// The next scalar to read.
    var position = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// All tokens of the string, ending with `.end`.
    static func tokenize(_ text: String) throws(PredicateSyntaxError) -> [FormatToken] {
        var tokenizer = FormatTokenizer(text)
        var tokens: [FormatToken] = []
        while true {
            let token = try tokenizer.nextToken()
            tokens.append(token)
            if case .end = token.kind { return tokens }
        }
    }

    private mutating func nextToken() throws(PredicateSyntaxError) -> FormatToken {
        skipWhitespace()
        let start = position
        guard let scalar = current else { return FormatToken(kind: .end, offset: start) }
        return FormatToken(kind: try tokenKind(startingWith: scalar), offset: start)
    }

    private mutating func tokenKind(startingWith scalar: Unicode.Scalar) throws(PredicateSyntaxError) -> FormatTokenKind {
        switch scalar {
        case "\"", "'":
            return .string(try readString())
        case "0"..."9":
            return try readNumber()
        case "$":
            return .variable(try readPrefixedName(after: "$", expecting: "a variable name"))
        case "#":
            return .identifier(try readPrefixedName(after: "#", expecting: "a key or reserved word"))
        case "@":
            return .collectionOperator("@" + (try readPrefixedName(after: "@", expecting: "a collection operator name")))
        case "%":
            return .formatSpecifier(try readFormatSpecifier())
        case _ where Self.startsIdentifier(scalar):
            return readWord()
        default:
            return .symbol(try readSymbol())
        }
    }

    // MARK: Characters

    var current: Unicode.Scalar? {
        position < scalars.count ? scalars[position] : nil
    }

    func peek(_ distance: Int) -> Unicode.Scalar? {
        position + distance < scalars.count ? scalars[position + distance] : nil
    }

    private mutating func skipWhitespace() {
        while let scalar = current, scalar.properties.isWhitespace {
            position += 1
        }
    }

    private static func startsIdentifier(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic
    }

    /// Letters, digits, `_`, and combining marks, so that decomposed accented keys stay one word.
    private static func continuesIdentifier(_ scalar: Unicode.Scalar) -> Bool {
        startsIdentifier(scalar) || scalar.properties.numericType != nil || scalar.properties.isGraphemeExtend
    }

    private func error(_ reason: String, at offset: Int? = nil) -> PredicateSyntaxError {
        PredicateSyntaxError(offset: offset ?? position, reason: reason)
    }

    // MARK: Words

    /// An identifier or a reserved word. `UTI-CONFORMS-TO` and `UTI-EQUALS` are single words.
    private mutating func readWord() -> FormatTokenKind {
        var word = readIdentifier()
        if word.uppercased() == "UTI", let suffix = hyphenatedUTISuffix() {
            position += suffix.count
            word += suffix
        }
        if let keyword = FormatKeyword(word: word) {
            return .keyword(keyword)
        }
        return .identifier(word)
    }

    private mutating func readIdentifier() -> String {
        var name = String.UnicodeScalarView()
        while let scalar = current, Self.continuesIdentifier(scalar) {
            name.append(scalar)
            position += 1
        }
        return String(name)
    }

    private func hyphenatedUTISuffix() -> String? {
        let rest = String(String.UnicodeScalarView(scalars[position...].prefix(12)))
        return ["-CONFORMS-TO", "-EQUALS"].first { rest.uppercased().hasPrefix($0) }
            .map { String(rest.prefix($0.count)) }
    }

    /// The identifier after `$`, `#` or `@`.
    private mutating func readPrefixedName(after prefix: Unicode.Scalar, expecting what: String) throws(PredicateSyntaxError) -> String {
        position += 1
        guard let scalar = current, Self.startsIdentifier(scalar) else {
            throw error("expected \(what) after '\(prefix)'")
        }
        return readIdentifier()
    }

    // MARK: Symbols

    private mutating func readSymbol() throws(PredicateSyntaxError) -> FormatSymbol {
        let candidates = current.flatMap { FormatSymbol.candidatesByFirstScalar[$0] } ?? []
        for symbol in candidates where matches(symbol.rawValue) {
            position += symbol.rawValue.unicodeScalars.count
            return symbol
        }
        throw error("unexpected character '\(current.map(String.init) ?? "")'")
    }

    private func matches(_ spelling: String) -> Bool {
        spelling.unicodeScalars.enumerated().allSatisfy { peek($0.offset) == $0.element }
    }
}
