// Writing elements as XML, the way Xcode writes model files.
extension ModelXMLElement {
    /// The document whose root is this element: an XML declaration, then the elements with
    /// four spaces of indentation per level.
    var document: String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
        write(into: &text, depth: 0)
        return text
    }

    private func write(into text: inout String, depth: Int) {
        let indentation = String(repeating: " ", count: 4 * depth)
        text += indentation + "<" + name
        for attribute in attributes {
            text += " \(attribute.name)=\"\(Self.escaped(attribute.value))\""
        }
        guard !children.isEmpty else {
            text += "/>\n"
            return
        }
        text += ">\n"
        for child in children {
            child.write(into: &text, depth: depth + 1)
        }
        text += indentation + "</\(name)>\n"
    }

    /// An attribute value with the characters XML reserves, and line breaks and tabs (which a
    /// reader would turn into spaces), written as references.
    private static func escaped(_ value: String) -> String {
        var escaped = ""
        for character in value.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "\n": escaped += "&#10;"
            case "\r": escaped += "&#13;"
            case "\t": escaped += "&#9;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}
