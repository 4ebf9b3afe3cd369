import CoreData

/// How attribute values are kept in JSON, which has only strings, numbers and Booleans: dates
/// are seconds since 1970, binary data is Base64, and UUIDs, URLs and decimals are strings.
enum AttributeJSONCoding {
    /// The JSON for an attribute's value; `null` for none.
    static func json(for value: Any?, of attribute: NSAttributeDescription) throws -> Any {
        guard let value else { return NSNull() }
        switch (attribute.attributeType, value) {
        case (.stringAttributeType, let string as String): return string
        case (.booleanAttributeType, let number as NSNumber): return number.boolValue
        case (.integer16AttributeType, let number as NSNumber), (.integer32AttributeType, let number as NSNumber),
             (.integer64AttributeType, let number as NSNumber):
            return number.int64Value
        case (.doubleAttributeType, let number as NSNumber), (.floatAttributeType, let number as NSNumber): return number.doubleValue
        case (.decimalAttributeType, let number as NSDecimalNumber): return number.stringValue
        case (.dateAttributeType, let date as Date): return date.timeIntervalSince1970
        case (.binaryDataAttributeType, let data as Data): return data.base64EncodedString()
        case (.UUIDAttributeType, let uuid as UUID): return uuid.uuidString
        case (.URIAttributeType, let url as URL): return url.absoluteString
        default:
            throw CocoaError(.coderInvalidValue, userInfo: [NSLocalizedDescriptionKey: "The JSON directory store cannot keep the value of '\(attribute.name)'."])
        }
    }

    /// The value of an attribute kept as `json` in `file`.
    static func value(from json: Any, of attribute: NSAttributeDescription, in file: URL) throws -> Any {
        if json is NSNull { return NSNull() }
        let value: Any?
        switch attribute.attributeType {
        case .stringAttributeType: value = json as? String
        case .booleanAttributeType: value = (json as? NSNumber).map { NSNumber(value: $0.boolValue) }
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: value = (json as? NSNumber).map { NSNumber(value: $0.int64Value) }
        case .doubleAttributeType, .floatAttributeType: value = (json as? NSNumber).map { NSNumber(value: $0.doubleValue) }
        case .decimalAttributeType: value = (json as? String).map { NSDecimalNumber(string: $0) }
        case .dateAttributeType: value = (json as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) }
        case .binaryDataAttributeType: value = (json as? String).flatMap { Data(base64Encoded: $0) }
        case .UUIDAttributeType: value = (json as? String).flatMap(UUID.init(uuidString:))
        case .URIAttributeType: value = (json as? String).flatMap(URL.init(string:))
        default: value = nil
        }
        guard let value else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSURLErrorKey: file]) }
        return value
    }
}
