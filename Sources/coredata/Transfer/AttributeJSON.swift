import CoreData

/// An attribute's value as JSON and back, by the attribute's type: what `coredata query`
/// prints and what `coredata export` writes and `coredata import` reads.
///
/// Strings, numbers and Booleans are themselves; dates are ISO 8601 strings with milliseconds;
/// decimals are strings (exact); binary data and transformable values (their transformer's
/// data) are base 64; UUIDs and URIs are strings; a composite is an object of its elements.
enum AttributeJSON {
    /// The JSON value of an attribute's value: a string, a number, a Boolean or an object.
    static func json(_ value: Any, for attribute: NSAttributeDescription) -> Any {
        switch (attribute.attributeType, value) {
        case (_, let string as String):
            return string
        case (.booleanAttributeType, let number as NSNumber):
            return number.boolValue
        case (.decimalAttributeType, let number as NSNumber):
            return number.description
        case (_, let number as NSNumber):
            return number
        case (_, let date as Date):
            return date.formatted(dateStyle)
        case (_, let data as Data):
            return data.base64EncodedString()
        case (_, let uuid as UUID):
            return uuid.uuidString
        case (_, let url as URL):
            return url.absoluteString
        case (_, let objectID as NSManagedObjectID):
            return objectID.uriRepresentation().absoluteString
        case (.compositeAttributeType, let elements as [String: Any]):
            return composite(elements, of: attribute)
        case (.transformableAttributeType, _):
            return (try? TransformableCoding.encode(value, for: attribute))?.base64EncodedString() ?? String(describing: value)
        default:
            return String(describing: value)
        }
    }

    /// The value of an attribute read from JSON; nil for `null`.
    ///
    /// - Throws: ``Mismatch`` when the JSON value is not one the attribute's type takes.
    static func value(_ json: Any, for attribute: NSAttributeDescription) throws -> Any? {
        if json is NSNull { return nil }
        let mismatch = Mismatch(attribute: attribute.name, value: "\(json)")
        switch attribute.attributeType {
        case .stringAttributeType:
            guard let string = json as? String else { throw mismatch }
            return string
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            guard let number = json as? NSNumber, !(json is Bool) else { throw mismatch }
            return NSNumber(value: number.int64Value)
        case .doubleAttributeType, .floatAttributeType:
            guard let number = json as? NSNumber, !(json is Bool) else { throw mismatch }
            return NSNumber(value: number.doubleValue)
        case .booleanAttributeType:
            guard let bool = json as? Bool else { throw mismatch }
            return NSNumber(value: bool)
        case .decimalAttributeType:
            guard let text = (json as? String) ?? (json as? NSNumber)?.description, let decimal = Decimal(string: text) else { throw mismatch }
            return NSDecimalNumber(decimal: decimal)
        case .dateAttributeType:
            guard let text = json as? String, let date = (try? Date(text, strategy: dateStyle)) ?? (try? Date(text, strategy: .iso8601)) else { throw mismatch }
            return date
        case .binaryDataAttributeType:
            return try data(json, mismatch)
        case .transformableAttributeType:
            return TransformableCoding.decode(try data(json, mismatch), for: attribute)
        case .UUIDAttributeType:
            guard let text = json as? String, let uuid = UUID(uuidString: text) else { throw mismatch }
            return uuid
        case .URIAttributeType:
            guard let text = json as? String, let url = URL(string: text) else { throw mismatch }
            return url
        case .compositeAttributeType:
            guard let object = json as? [String: Any], let composite = attribute as? NSCompositeAttributeDescription else { throw mismatch }
            return try composite.elements.reduce(into: [String: Any]()) { values, element in
                if let json = object[element.name], let value = try value(json, for: element) { values[element.name] = value }
            }
        case .objectIDAttributeType, .undefinedAttributeType:
            // An ID names an object of the store it came from, not of the one imported into.
            return nil
        }
    }

    /// A JSON value that does not fit its attribute's type.
    struct Mismatch: Error {
        let attribute: String
        /// The JSON value, as text.
        let value: String
    }

    private static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    private static func composite(_ values: [String: Any], of attribute: NSAttributeDescription) -> [String: Any] {
        let elements = (attribute as? NSCompositeAttributeDescription)?.elements ?? []
        return elements.reduce(into: [String: Any]()) { object, element in
            if let value = values[element.name] { object[element.name] = json(value, for: element) }
        }
    }

    private static func data(_ json: Any, _ mismatch: Mismatch) throws -> Data {
        guard let text = json as? String, let data = Data(base64Encoded: text) else { throw mismatch }
        return data
    }
}
