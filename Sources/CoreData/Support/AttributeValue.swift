/// Conversions between the values programs hand to Core Data and the values key-value coding
/// returns, which are Apple's: `NSNumber` for numbers and booleans, `NSDecimalNumber` for decimals,
/// and `String`, `Date`, `Data`, `UUID` and `URL` for the other types.
enum AttributeValue {
    /// The value in the form Core Data keeps for the attribute, or the value unchanged when it
    /// cannot be converted (validation then reports it at save).
    static func normalized(_ value: Any, for attribute: NSAttributeDescription) -> Any? {
        if value is NSNull { return nil }
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType,
             .doubleAttributeType, .floatAttributeType, .booleanAttributeType:
            return number(from: value) ?? value
        case .decimalAttributeType:
            return decimalNumber(from: value) ?? value
        case .stringAttributeType:
            if let string = value as? String { return string }
            if let string = value as? Substring { return String(string) }
            return value
        case .dateAttributeType:
            return (value as? Date) ?? value
        case .binaryDataAttributeType:
            if let data = value as? Data { return data }
            if let bytes = value as? [UInt8] { return Data(bytes) }
            return value
        case .UUIDAttributeType:
            return (value as? UUID) ?? value
        case .URIAttributeType:
            return (value as? URL) ?? value
        case .undefinedAttributeType, .transformableAttributeType, .objectIDAttributeType, .compositeAttributeType:
            return value
        }
    }

    /// Whether a (normalized) value has a type the attribute accepts.
    static func isAcceptable(_ value: Any, for attribute: NSAttributeDescription) -> Bool {
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType,
             .doubleAttributeType, .floatAttributeType, .booleanAttributeType, .decimalAttributeType:
            return value is NSNumber
        case .stringAttributeType: return value is String
        case .dateAttributeType: return value is Date
        case .binaryDataAttributeType: return value is Data
        case .UUIDAttributeType: return value is UUID
        case .URIAttributeType: return value is URL
        case .objectIDAttributeType: return value is NSManagedObjectID
        case .undefinedAttributeType, .transformableAttributeType, .compositeAttributeType: return true
        }
    }

    /// The Foundation class name of a value, for validation messages.
    static func typeName(of value: Any) -> String {
        switch value {
        case is NSNumber: return "NSNumber"
        case is String: return "NSString"
        case is Date: return "NSDate"
        case is Data: return "NSData"
        case is UUID: return "NSUUID"
        case is URL: return "NSURL"
        default: return "\(type(of: value))"
        }
    }

    private static func number(from value: Any) -> NSNumber? {
        switch value {
        case let number as NSNumber: return number
        case let value as Bool: return NSNumber(value: value)
        case let value as Int: return NSNumber(value: value)
        case let value as Int16: return NSNumber(value: value)
        case let value as Int32: return NSNumber(value: value)
        case let value as Int64: return NSNumber(value: value)
        case let value as Int8: return NSNumber(value: value)
        case let value as UInt: return NSNumber(value: value)
        case let value as UInt8: return NSNumber(value: value)
        case let value as UInt16: return NSNumber(value: value)
        case let value as UInt32: return NSNumber(value: value)
        case let value as UInt64: return NSNumber(value: value)
        case let value as Double: return NSNumber(value: value)
        case let value as Float: return NSNumber(value: value)
        case let value as Decimal: return NSDecimalNumber(decimal: value)
        default: return nil
        }
    }

    private static func decimalNumber(from value: Any) -> NSDecimalNumber? {
        switch value {
        case let number as NSDecimalNumber: return number
        case let decimal as Decimal: return NSDecimalNumber(decimal: decimal)
        default: return number(from: value).map { NSDecimalNumber(decimal: $0.decimalValue) }
        }
    }
}

extension NSNumber {
    /// Whether the number holds a float or a double (as opposed to an integer or a boolean).
    var isFloatingPointNumber: Bool {
        let type = objCType.pointee
        return type == UInt8(ascii: "f") || type == UInt8(ascii: "d")
    }
}
