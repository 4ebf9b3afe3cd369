extension FormatTokenizer {
    // MARK: Strings

    /// A string between matching quotes, with backslash escapes applied (spec §1.4).
    mutating func readString() throws(PredicateSyntaxError) -> String {
        let start = position
        let quote = scalars[position]
        position += 1
        var text = String.UnicodeScalarView()
        while let scalar = current {
            position += 1
            if scalar == quote {
                return String(text)
            }
            if scalar == "\\" {
                text.append(contentsOf: try readEscape())
            } else {
                text.append(scalar)
            }
        }
        throw PredicateSyntaxError(offset: start, reason: "unterminated string: expected a closing \(quote)")
    }

    /// The characters an escape stands for, after its backslash. An unknown escape keeps its
    /// backslash, so regular expressions such as `'\d+'` reach `MATCHES` intact.
    private mutating func readEscape() throws(PredicateSyntaxError) -> [Unicode.Scalar] {
        guard let scalar = current else { return ["\\"] }
        position += 1
        switch scalar {
        case "\\", "'", "\"": return [scalar]
        case "n": return ["\n"]
        case "t": return ["\t"]
        case "r": return ["\r"]
        case "x", "X": return [try readCodePoint(digits: 2, radix: 16)]
        case "u", "U": return [try readCodePoint(digits: 4, radix: 16)]
        case "0"..."7" where isOctalEscape:
            position -= 1
            return [try readCodePoint(digits: 3, radix: 8)]
        default: return ["\\", scalar]
        }
    }

    private var isOctalEscape: Bool {
        (-1...1).allSatisfy { peek($0).map { ("0"..."7").contains($0) } ?? false }
    }

    private mutating func readCodePoint(digits: Int, radix: Int) throws(PredicateSyntaxError) -> Unicode.Scalar {
        let start = position
        let text = String(String.UnicodeScalarView(scalars[position...].prefix(digits)))
        position += text.unicodeScalars.count
        guard text.unicodeScalars.count == digits, let value = UInt32(text, radix: radix), let scalar = Unicode.Scalar(value) else {
            throw PredicateSyntaxError(offset: start, reason: "invalid escape: expected \(digits) base-\(radix) digits")
        }
        return scalar
    }

    // MARK: Numbers

    /// A decimal, hexadecimal (`0x`), octal (`0o`) or binary (`0b`) number (spec §1.5). Integers
    /// too large for 64 bits become doubles.
    mutating func readNumber() throws(PredicateSyntaxError) -> FormatTokenKind {
        let start = position
        let kind = try readRadixInteger() ?? readDecimal()
        if let scalar = current, Self.isWordCharacter(scalar) {
            throw PredicateSyntaxError(offset: start, reason: "invalid number: unexpected '\(scalar)' after its digits")
        }
        return kind
    }

    private static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    private mutating func readRadixInteger() throws(PredicateSyntaxError) -> FormatTokenKind? {
        guard current == "0", let marker = peek(1), let radix = Self.radix(marker: marker) else { return nil }
        let start = position
        position += 2
        let digits = readScalars { $0.properties.isASCIIHexDigit }
        guard let value = Int64(digits, radix: radix) else {
            throw PredicateSyntaxError(offset: start, reason: "invalid number: expected base-\(radix) digits after '0\(marker)'")
        }
        return .integer(value)
    }

    private static func radix(marker: Unicode.Scalar) -> Int? {
        switch marker {
        case "x", "X": 16
        case "o", "O": 8
        case "b", "B": 2
        default: nil
        }
    }

    private mutating func readDecimal() -> FormatTokenKind {
        var text = readDigits()
        var isInteger = true
        if current == ".", let next = peek(1), ("0"..."9").contains(next) {
            position += 1
            text += "." + readDigits()
            isInteger = false
        }
        if let exponent = readExponent() {
            text += exponent
            isInteger = false
        }
        if isInteger, let value = Int64(text) {
            return .integer(value)
        }
        return .decimal(Double(text) ?? .infinity)
    }

    /// `e`, an optional sign and digits; nil (consuming nothing) when no exponent follows.
    private mutating func readExponent() -> String? {
        guard current == "e" || current == "E" else { return nil }
        let sign = peek(1) == "+" || peek(1) == "-" ? 1 : 0
        guard let digit = peek(1 + sign), ("0"..."9").contains(digit) else { return nil }
        let marker = String(scalars[position..<position + 1 + sign].map(Character.init))
        position += 1 + sign
        return marker + readDigits()
    }

    private mutating func readDigits() -> String {
        readScalars { ("0"..."9").contains($0) }
    }

    private mutating func readScalars(while accept: (Unicode.Scalar) -> Bool) -> String {
        var text = String.UnicodeScalarView()
        while let scalar = current, accept(scalar) {
            text.append(scalar)
            position += 1
        }
        return String(text)
    }

    // MARK: Format specifiers

    /// A `%` conversion: optional length modifiers (`h`, `l`, `ll`, `q`, `z`, `t`, `j`, `L`), then
    /// the conversion character. `%k` is rejected: key paths are `%K`.
    mutating func readFormatSpecifier() throws(PredicateSyntaxError) -> FormatSpecifier {
        let start = position
        position += 1
        _ = readScalars { "hlqztjL".unicodeScalars.contains($0) }
        guard let conversion = current else {
            throw PredicateSyntaxError(offset: start, reason: "incomplete format specifier at the end of the format string")
        }
        position += 1
        guard let specifier = Self.specifier(conversion: conversion) else {
            let written = String(String.UnicodeScalarView(scalars[start..<position]))
            throw PredicateSyntaxError(offset: start, reason: "unknown format specifier '\(written)'")
        }
        return specifier
    }

    private static func specifier(conversion: Unicode.Scalar) -> FormatSpecifier? {
        switch conversion {
        case "@": .object
        case "K": .keyPath
        case "d", "i", "o", "u", "x", "X", "c", "C": .integer
        case "f", "F", "e", "E", "g", "G", "a", "A": .double
        case "s", "S": .string
        case "%": .percent
        default: nil
        }
    }
}
