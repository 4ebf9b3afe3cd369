// Writing elements as XML.
extension XMLDocumentElement {
    /// How a document is written.
    struct WritingStyle {
        /// What comes before the root element: the XML declaration, a document type declaration.
        var prologue: String
        /// Whether an element without children or text is written `<name/>` (as Xcode writes
        /// model files) rather than `<name></name>` (as Core Data writes XML stores).
        var closesEmptyElementsInTheTag: Bool

        /// Model files as Xcode writes them.
        static let modelFile = WritingStyle(prologue: "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n", closesEmptyElementsInTheTag: true)
    }

    /// The document whose root is this element: the style's prologue, then the elements with
    /// four spaces of indentation per level. An element with text is written on one line.
    func document(_ style: WritingStyle = .modelFile) -> String {
        var text = style.prologue
        write(into: &text, depth: 0, style: style)
        return text
    }

    private func write(into text: inout String, depth: Int, style: WritingStyle) {
        let indentation = String(repeating: " ", count: 4 * depth)
        text += indentation + "<" + name
        for attribute in attributes {
            text += " \(attribute.name)=\"\(Self.escaped(attribute.value, inAttribute: true))\""
        }
        if children.isEmpty {
            switch (self.text.isEmpty, style.closesEmptyElementsInTheTag) {
            case (true, true): text += "/>\n"
            default: text += ">" + Self.escaped(self.text, inAttribute: false) + "</\(name)>\n"
            }
            return
        }
        text += ">\n"
        for child in children {
            child.write(into: &text, depth: depth + 1, style: style)
        }
        text += indentation + "</\(name)>\n"
    }

    /// A value with the characters XML reserves written as references; in an attribute, line
    /// breaks and tabs too, which a reader would turn into spaces.
    private static func escaped(_ value: String, inAttribute: Bool) -> String {
        var escaped = ""
        for character in value.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"" where inAttribute: escaped += "&quot;"
            case "\n" where inAttribute: escaped += "&#10;"
            case "\r": escaped += "&#13;"
            case "\t" where inAttribute: escaped += "&#9;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}
