/// Names from a model, checked and spelled as Swift source needs them.
enum SwiftName {
    /// Whether a name can be a Swift identifier: a letter or underscore, then letters, ASCII
    /// digits or underscores; `_` alone is not one.
    static func isIdentifier(_ name: String) -> Bool {
        guard name != "_", let first = name.first, first.isLetter || first == "_" else { return false }
        return name.allSatisfy { $0.isLetter || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// Whether a name can name a generated property: an identifier that is not one of the
    /// members every type has (`Type`, `Protocol`), which no escaping makes a property name.
    static func isPropertyName(_ name: String) -> Bool {
        isIdentifier(name) && name != "Type" && name != "Protocol"
    }

    /// Whether a name can name a generated class: an identifier that is not a keyword.
    static func isClassName(_ name: String) -> Bool {
        isPropertyName(name) && !keywords.contains(name)
    }

    /// The name as a declaration or member reference: keywords get backticks.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// The name with its first letter upper-cased, as in `addToCast` for `cast`.
    static func capitalized(_ name: String) -> String {
        name.prefix(1).uppercased() + name.dropFirst()
    }

    /// The name as a string literal, with quotes, backslashes and control characters escaped.
    static func literal(_ name: String) -> String {
        var literal = "\""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case _ where scalar.properties.generalCategory == .control:
                literal += "\\u{\(String(scalar.value, radix: 16))}"
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }

    /// The class a `managedObjectClassName` names in the module the code is generated into:
    /// the name without its module (`MyApp.Movie` and `.Movie` are `Movie`); nil for none.
    static func className(_ managedObjectClassName: String?) -> String? {
        guard let name = managedObjectClassName?.split(separator: ".").last.map(String.init),
              !name.isEmpty, name != "NSManagedObject" else { return nil }
        return name
    }

    /// Properties of `NSManagedObject` and `NSObject` that a generated property would redeclare.
    static let reservedPropertyNames: Set<String> = [
        "description", "debugDescription", "hash", "hashValue", "self", "entity", "objectID",
        "managedObjectContext", "isInserted", "isUpdated", "isDeleted", "hasChanges",
        "hasPersistentChangedValues", "isFault", "faultingState", "propertyNamesByKeyPath",
    ]

    /// Words that must be escaped to name a property.
    private static let keywords: Set<String> = [
        "Any", "Self", "Type", "as", "associatedtype", "break", "case", "catch", "class", "continue",
        "default", "defer", "deinit", "do", "else", "enum", "extension", "fallthrough", "false",
        "fileprivate", "for", "func", "guard", "if", "import", "in", "init", "inout", "internal", "is",
        "let", "nil", "operator", "private", "precedencegroup", "protocol", "public", "repeat",
        "rethrows", "return", "static", "struct", "subscript", "super", "switch", "throw", "throws",
        "true", "try", "typealias", "var", "where", "while",
    ]
}
