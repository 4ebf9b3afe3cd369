/// Reads an XML document into elements: the model files Xcode writes and the XML store's files.
///
/// Both use a small part of XML: a declaration, a document type declaration, elements with
/// attributes, text with character references, and whitespace between elements. The parser
/// reads that, keeps each element's text (CDATA sections included), skips comments, processing
/// instructions and the document type declaration, and reports anything malformed with its
/// line. It refuses elements nested more than `maximumDepth` deep, so that no file can build a
/// tree deep enough for walking or freeing it to overflow a thread's stack.
struct XMLDocumentParser {
    static let maximumDepth = 64

    /// What is wrong, and on which line.
    struct Failure: Error {
        let line: Int
        let message: String
    }

    private let bytes: [UInt8]
    private var position = 0
    private var line = 1
    /// The position up to which newlines have been counted into `line`.
    private var countedPosition = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The root element of a document.
    static func parse(_ bytes: [UInt8]) throws(Failure) -> XMLDocumentElement {
        var parser = XMLDocumentParser(bytes)
        return try parser.document()
    }

    // MARK: Document

    private mutating func document() throws(Failure) -> XMLDocumentElement {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        var open: [XMLDocumentElement] = []
        var root: XMLDocumentElement?
        while true {
            if open.isEmpty {
                skipWhitespace()
            } else {
                try readText(into: &open[open.count - 1].text)
            }
            guard position < bytes.count else { break }
            guard bytes[position] == UInt8(ascii: "<") else { throw failure("text outside the root element") }
            if peek("<![CDATA["), !open.isEmpty {
                try readCharacterData(into: &open[open.count - 1].text)
                continue
            }
            if try skipMarkup() { continue }
            if peek("</") {
                let (name, line) = try closingTag()
                guard let element = open.popLast() else { throw failure("</\(name)> closes no element", at: line) }
                guard element.name == name else { throw failure("</\(name)> closes <\(element.name)>, opened on line \(element.line)", at: line) }
                attach(element, to: &open, root: &root)
                continue
            }
            guard root == nil || !open.isEmpty else { throw failure("content after the root element") }
            let (element, isEmpty) = try openingTag()
            if isEmpty {
                attach(element, to: &open, root: &root)
            } else {
                guard open.count < Self.maximumDepth else { throw failure("elements nest more than \(Self.maximumDepth) levels deep", at: element.line) }
                open.append(element)
            }
        }
        if let unclosed = open.last { throw failure("<\(unclosed.name)>, opened on line \(unclosed.line), is never closed") }
        guard let root else { throw failure("the file holds no XML element") }
        return root
    }

    /// Adds a finished element to its parent, or makes it the root.
    private func attach(_ element: XMLDocumentElement, to open: inout [XMLDocumentElement], root: inout XMLDocumentElement?) {
        if open.isEmpty {
            root = element
        } else {
            open[open.count - 1].children.append(element)
        }
    }

    // MARK: Tags

    /// `<name attribute="value" …>` or `<name … />`.
    private mutating func openingTag() throws(Failure) -> (XMLDocumentElement, isEmpty: Bool) {
        let line = currentLine()
        position += 1
        let name = try self.name()
        var attributes: [(name: String, value: String)] = []
        var names = Set<String>()
        while true {
            let hadSpace = skipWhitespace()
            guard position < bytes.count else { throw failure("<\(name)> ends before its '>'", at: line) }
            if bytes[position] == UInt8(ascii: ">") {
                position += 1
                return (XMLDocumentElement(name: name, attributes: attributes, line: line), false)
            }
            if peek("/>") {
                position += 2
                return (XMLDocumentElement(name: name, attributes: attributes, line: line), true)
            }
            guard hadSpace else { throw failure("unexpected byte 0x\(String(bytes[position], radix: 16)) in <\(name)>") }
            let attribute = try self.name()
            guard names.insert(attribute).inserted else { throw failure("<\(name)> has two '\(attribute)' attributes") }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else { throw failure("the attribute '\(attribute)' of <\(name)> has no value") }
            position += 1
            skipWhitespace()
            attributes.append((attribute, try quotedValue(of: attribute)))
        }
    }

    /// `</name>`, with the line it is on.
    private mutating func closingTag() throws(Failure) -> (String, Int) {
        let line = currentLine()
        position += 2
        let name = try self.name()
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else { throw failure("</\(name) is not closed by '>'", at: line) }
        position += 1
        return (name, line)
    }

    private mutating func name() throws(Failure) -> String {
        let start = position
        while position < bytes.count, !Self.endsName(bytes[position]) { position += 1 }
        guard position > start else { throw failure(position < bytes.count ? "a name was expected" : "the file ends inside a tag") }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
             UInt8(ascii: "/"), UInt8(ascii: ">"), UInt8(ascii: "="), UInt8(ascii: "<"), UInt8(ascii: "\""), UInt8(ascii: "'"):
            true
        default:
            false
        }
    }

    /// A quoted attribute value with its references replaced by the characters they stand for,
    /// and line breaks and tabs written as such turned into spaces, as XML reads values.
    private mutating func quotedValue(of attribute: String) throws(Failure) -> String {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else {
            throw failure("the value of '\(attribute)' is not quoted")
        }
        let quote = bytes[position]
        position += 1
        var value: [UInt8] = []
        while position < bytes.count, bytes[position] != quote {
            switch bytes[position] {
            case UInt8(ascii: "&"): value.append(contentsOf: try reference())
            case UInt8(ascii: "<"): throw failure("the value of '\(attribute)' contains '<'")
            case UInt8(ascii: "\r") where position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "\n"): position += 1
            case UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): value.append(UInt8(ascii: " ")); position += 1
            default: value.append(bytes[position]); position += 1
            }
        }
        guard position < bytes.count else { throw failure("the value of '\(attribute)' is never closed") }
        position += 1
        return String(decoding: value, as: UTF8.self)
    }

    // MARK: Text

    /// Text up to the next '<', with its references replaced by the characters they stand for.
    private mutating func readText(into text: inout String) throws(Failure) {
        var run: [UInt8] = []
        while position < bytes.count, bytes[position] != UInt8(ascii: "<") {
            if bytes[position] == UInt8(ascii: "&") {
                run.append(contentsOf: try reference())
            } else {
                run.append(bytes[position])
                position += 1
            }
        }
        if !run.isEmpty { text += String(decoding: run, as: UTF8.self) }
    }

    /// A CDATA section's characters, as they are.
    private mutating func readCharacterData(into text: inout String) throws(Failure) {
        let line = currentLine()
        let start = position + "<![CDATA[".utf8.count
        guard let end = find("]]>", from: start) else { throw failure("'<![CDATA[' is never closed", at: line) }
        text += String(decoding: bytes[start..<end], as: UTF8.self)
        position = end + "]]>".utf8.count
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#NN;` or `&#xHH;`, as UTF-8.
    private mutating func reference() throws(Failure) -> [UInt8] {
        guard let end = bytes[position...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else { throw failure("'&' starts no reference") }
        let body = String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
        position = end + 1
        switch body {
        case "amp": return [UInt8(ascii: "&")]
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            let number = body.hasPrefix("#x") ? UInt32(body.dropFirst(2), radix: 16) : body.hasPrefix("#") ? UInt32(body.dropFirst()) : nil
            guard let number, let scalar = Unicode.Scalar(number) else { throw failure("unknown reference '&\(body);'") }
            guard Self.allows(scalar) else { throw failure("'&\(body);' stands for a character XML does not allow") }
            return Array(String(Character(scalar)).utf8)
        }
    }

    /// Whether XML allows a character in a document: tab, line feed, carriage return, and the
    /// rest of Unicode from U+0020 but U+FFFE and U+FFFF (surrogates are no scalars).
    static func allows(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: true
        case 0x20...0xFFFD, 0x10000...: true
        default: false
        }
    }

    // MARK: Skipped content

    /// Skips a comment, a processing instruction (the XML declaration), a document type
    /// declaration or a CDATA section outside the root element; false when none starts here.
    private mutating func skipMarkup() throws(Failure) -> Bool {
        let skipped: (start: String, end: String)? =
            peek("<!--") ? ("<!--", "-->") : peek("<?") ? ("<?", "?>") : peek("<![CDATA[") ? ("<![CDATA[", "]]>") : peek("<!") ? ("<!", ">") : nil
        guard let skipped else { return false }
        let line = currentLine()
        guard let end = find(skipped.end, from: position + skipped.start.utf8.count) else { throw failure("'\(skipped.start)' is never closed", at: line) }
        position = end + skipped.end.utf8.count
        return true
    }

    @discardableResult
    private mutating func skipWhitespace() -> Bool {
        let start = position
        while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
        return position > start
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
    }

    // MARK: Positions

    private func peek(_ text: String) -> Bool {
        bytes[position...].starts(with: text.utf8)
    }

    private func find(_ text: String, from start: Int) -> Int? {
        let pattern = Array(text.utf8)
        var index = start
        while index + pattern.count <= bytes.count {
            if bytes[index] == pattern[0], bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }

    private mutating func currentLine() -> Int {
        let end = min(position, bytes.count)
        if countedPosition < end {
            line += bytes[countedPosition..<end].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            countedPosition = end
        }
        return line
    }

    private mutating func failure(_ message: String, at line: Int? = nil) -> Failure {
        Failure(line: line ?? currentLine(), message: message)
    }
}
