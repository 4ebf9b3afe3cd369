/// Attribute values as the XML store writes them: the text of an `<attribute>` element, and the
/// name of its type.
///
/// The names and texts of `string`, `int16`, `int32`, `bool`, `float`, `date` and `binary` are
/// those of files Apple's Core Data writes; `int64`, `double`, `decimal`, `uuid`, `uri` and
/// `transformable` are ours (transformable values as the Base64 of the data their transformer
/// makes). Object-ID attributes are never stored: a model with a persistent one is refused.
enum XMLStoreValueCodec {
    /// The name an attribute type has in the file.
    static func typeName(of type: NSAttributeType) -> String {
        switch type {
        case .integer16AttributeType: "int16"
        case .integer32AttributeType: "int32"
        case .integer64AttributeType: "int64"
        case .decimalAttributeType: "decimal"
        case .doubleAttributeType: "double"
        case .floatAttributeType: "float"
        case .booleanAttributeType: "bool"
        case .dateAttributeType: "date"
        case .binaryDataAttributeType: "binary"
        case .UUIDAttributeType: "uuid"
        case .URIAttributeType: "uri"
        case .transformableAttributeType: "transformable"
        default: "string"
        }
    }

    /// The text of an attribute's value.
    ///
    /// - Throws: The transformer's error for a transformable value it cannot turn into data.
    static func text(of value: Any, for attribute: NSAttributeDescription) throws -> String {
        switch (attribute.attributeType, value) {
        case (.booleanAttributeType, let number as NSNumber):
            number.boolValue ? "1" : "0"
        case (.floatAttributeType, let number as NSNumber):
            "\(number.floatValue)"
        case (.doubleAttributeType, let number as NSNumber):
            "\(number.doubleValue)"
        case (.dateAttributeType, let date as Date):
            String(format: "%.20f", date.timeIntervalSinceReferenceDate)
        case (.binaryDataAttributeType, let data as Data):
            base64(data)
        case (.decimalAttributeType, let number as NSDecimalNumber):
            number.stringValue
        case (.UUIDAttributeType, let uuid as UUID):
            uuid.uuidString
        case (.URIAttributeType, let url as URL):
            url.absoluteString
        case (.transformableAttributeType, _):
            base64(try TransformableCoding.encode(value, for: attribute))
        case (_, let number as NSNumber):
            number.stringValue
        default:
            "\(value)"
        }
    }

    /// An attribute's value from its text; nil for text that is not a value of its type.
    static func value(of text: String, for attribute: NSAttributeDescription) -> Any? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            return Int64(trimmed).map { NSNumber(value: $0) }
        case .booleanAttributeType:
            return ["1": true, "0": false][trimmed].map { NSNumber(value: $0) }
        case .floatAttributeType:
            return Float(trimmed).map { NSNumber(value: $0) }
        case .doubleAttributeType:
            return Double(trimmed).map { NSNumber(value: $0) }
        case .dateAttributeType:
            return Double(trimmed).map { Date(timeIntervalSinceReferenceDate: $0) }
        case .binaryDataAttributeType:
            return Data(base64Encoded: trimmed, options: .ignoreUnknownCharacters)
        case .decimalAttributeType:
            let number = NSDecimalNumber(string: trimmed)
            return number == NSDecimalNumber.notANumber ? nil : number
        case .UUIDAttributeType:
            return UUID(uuidString: trimmed)
        case .URIAttributeType:
            return URL(string: trimmed)
        case .transformableAttributeType:
            return Data(base64Encoded: trimmed, options: .ignoreUnknownCharacters).flatMap { TransformableCoding.decode($0, for: attribute) }
        default:
            return text
        }
    }

    /// Base64 in lines of 76 characters, as Apple's files hold binary values.
    private static func base64(_ data: Data) -> String {
        data.base64EncodedString(options: [.lineLength76Characters, .endLineWithLineFeed])
    }
}
