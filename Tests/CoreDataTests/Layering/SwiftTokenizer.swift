import Foundation

/// A token of Swift source that matters for finding type names, with the line it starts on.
struct SwiftToken: Equatable {
    enum Kind: Equatable {
        /// An identifier or keyword that does not follow a `.`.
        case name
        /// An identifier after a single `.`: a member, an enum case, or the inner part of a
        /// qualified name (`Outer.Inner`, `Foundation.NSPredicate`).
        case memberName
        case openBrace
        case closeBrace
    }

    let kind: Kind
    let text: String
    let line: Int
}

/// Splits Swift source into names and braces, leaving out what can mention a type without being
/// code: comments (`//`, nested `/* */`) and the text of string literals (plain, multi-line and
/// raw, with any number of `#`). The code inside a string interpolation is code, so its tokens are
/// kept. Other punctuation and numbers are dropped. Regex literals are not recognised (the sources
/// have none).
///
/// It runs over the UTF-8 bytes in one pass, because the test target is built without
/// optimisation and reads the whole module on every run.
struct SwiftTokenizer {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var line = 1
    /// How many `.` came in a row before the next token; a name after exactly one is a member
    /// (after `...` or `..<` it is not).
    private var dotsBefore = 0
    private var tokens: [SwiftToken] = []

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The tokens of `source`, in order.
    static func tokens(of source: String) -> [SwiftToken] {
        var source = source
        return source.withUTF8 { buffer in
            var tokenizer = SwiftTokenizer(buffer)
            tokenizer.lexCode(insideInterpolation: false)
            return tokenizer.tokens
        }
    }

    /// Lexes code up to the end of the input or, inside an interpolation, up to the `)` that
    /// closes it (which is consumed).
    private mutating func lexCode(insideInterpolation: Bool) {
        var openParentheses = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte.isIdentifierHead {
                lexIdentifier()
                continue
            }
            switch byte {
            case .newline:
                line += 1
                index += 1
            case .space, .tab, .carriageReturn:
                index += 1
            case .slash where peek(1) == .slash:
                skipLineComment()
            case .slash where peek(1) == .asterisk:
                skipBlockComment()
            case .quote:
                skipStringLiteral()
            case .hash where rawStringHashCount() != nil:
                skipStringLiteral()
            case .backtick:
                lexEscapedIdentifier()
            case .zero ... .nine:
                skipNumber()
            case .openBrace, .closeBrace:
                let kind: SwiftToken.Kind = byte == .openBrace ? .openBrace : .closeBrace
                tokens.append(SwiftToken(kind: kind, text: byte == .openBrace ? "{" : "}", line: line))
                dotsBefore = 0
                index += 1
            case .closeParenthesis where insideInterpolation && openParentheses == 0:
                index += 1
                return
            default:
                if byte == .openParenthesis { openParentheses += 1 }
                if byte == .closeParenthesis { openParentheses -= 1 }
                dotsBefore = byte == .dot ? dotsBefore + 1 : 0
                index += 1
            }
        }
    }

    private func peek(_ offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private mutating func lexIdentifier() {
        let start = index
        index += 1
        while index < bytes.count && bytes[index].isIdentifierBody { index += 1 }
        appendName(start..<index)
    }

    /// `` `default` `` names the identifier `default`.
    private mutating func lexEscapedIdentifier() {
        index += 1
        let start = index
        while index < bytes.count && bytes[index] != .backtick && bytes[index] != .newline { index += 1 }
        appendName(start..<index)
        if peek(0) == .backtick { index += 1 }
    }

    private mutating func appendName(_ range: Range<Int>) {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        tokens.append(SwiftToken(kind: dotsBefore == 1 ? .memberName : .name, text: text, line: line))
        dotsBefore = 0
    }

    /// Digits, letters and underscores (`0x1F`, `1_000`, `2e5`), and a `.` only when a digit
    /// follows it, so `tuple.0.name` still yields the member `name`.
    private mutating func skipNumber() {
        while index < bytes.count {
            let byte = bytes[index]
            if byte.isIdentifierBody || (byte == .dot && peek(1).map { $0 >= .zero && $0 <= .nine } == true) {
                index += 1
            } else {
                break
            }
        }
        dotsBefore = 0
    }

    private mutating func skipLineComment() {
        while index < bytes.count && bytes[index] != .newline { index += 1 }
    }

    /// Block comments nest in Swift: `/* a /* b */ c */` is one comment.
    private mutating func skipBlockComment() {
        var depth = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == .slash && peek(1) == .asterisk {
                depth += 1
                index += 2
            } else if byte == .asterisk && peek(1) == .slash {
                depth -= 1
                index += 2
                if depth == 0 { return }
            } else {
                if byte == .newline { line += 1 }
                index += 1
            }
        }
    }

    /// At a run of `#` that opens a raw string, the number of `#`; `nil` at `#if` and the like.
    private func rawStringHashCount() -> Int? {
        var count = 0
        while peek(count) == .hash { count += 1 }
        return peek(count) == .quote ? count : nil
    }

    /// Skips a string literal from its opening delimiter to its closing one. Escapes in a raw
    /// string carry as many `#` as its delimiters (`\#(x)`, `\#n`); a lone `\` is text there.
    private mutating func skipStringLiteral() {
        let hashes = rawStringHashCount() ?? 0
        index += hashes
        let isMultiLine = peek(0) == .quote && peek(1) == .quote && peek(2) == .quote
        index += isMultiLine ? 3 : 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == .backslash && hasHashes(hashes, at: 1) {
                index += 1 + hashes
                if peek(0) == .openParenthesis {
                    index += 1
                    lexCode(insideInterpolation: true)
                } else if peek(0) != .newline {
                    // The escaped character: `\"` does not close the literal.
                    index += 1
                }
            } else if byte == .quote && closesString(hashes: hashes, isMultiLine: isMultiLine) {
                index += (isMultiLine ? 3 : 1) + hashes
                break
            } else {
                if byte == .newline { line += 1 }
                index += 1
            }
        }
        dotsBefore = 0
    }

    private func hasHashes(_ count: Int, at offset: Int) -> Bool {
        var matched = 0
        while matched < count && peek(offset + matched) == .hash { matched += 1 }
        return matched == count
    }

    private func closesString(hashes: Int, isMultiLine: Bool) -> Bool {
        guard isMultiLine else { return hasHashes(hashes, at: 1) }
        return peek(1) == .quote && peek(2) == .quote && hasHashes(hashes, at: 3)
    }
}

private extension UInt8 {
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let slash = UInt8(ascii: "/")
    static let asterisk = UInt8(ascii: "*")
    static let quote = UInt8(ascii: "\"")
    static let hash = UInt8(ascii: "#")
    static let backslash = UInt8(ascii: "\\")
    static let backtick = UInt8(ascii: "`")
    static let dot = UInt8(ascii: ".")
    static let openParenthesis = UInt8(ascii: "(")
    static let closeParenthesis = UInt8(ascii: ")")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")

    /// Letters, `_`, `$` (`$0`) and every byte of a non-ASCII character (Swift allows many of
    /// them in identifiers; none of them is punctuation that matters here).
    var isIdentifierHead: Bool {
        (self >= 97 && self <= 122) || (self >= 65 && self <= 90) || self == 95 || self == 36 || self >= 0x80
    }

    var isIdentifierBody: Bool {
        (self >= 97 && self <= 122) || (self >= 65 && self <= 90) || (self >= 48 && self <= 57)
            || self == 95 || self == 36 || self >= 0x80
    }
}
