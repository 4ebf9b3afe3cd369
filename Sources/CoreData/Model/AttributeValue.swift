/// Conversions between the values programs hand to Core Data and the values key-value coding
/// returns, which are Apple's: `NSNumber` for numbers and booleans, `NSDecimalNumber` for decimals,
/// and `String`, `Date`, `Data`, `UUID` and `URL` for the other types.
enum AttributeValue {
    /// The value in the form Core Data keeps for an attribute type, and whether the type accepts
    /// it. A value that cannot be converted is kept as it is and reported invalid, so that
    /// validation can report it at save, as Apple does.
    static func normalized(_ value: Any, type: NSAttributeType) -> (value: Any?, isValid: Bool) {
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType,
             .doubleAttributeType, .floatAttributeType, .booleanAttributeType:
            if let number = value as? NSNumber { return (number, true) }
            return converted(value, number(from:))
        case .decimalAttributeType:
            if let decimal = value as? NSDecimalNumber { return (decimal, true) }
            return converted(value, decimalNumber(from:))
        case .stringAttributeType:
            if let string = value as? String { return (string, true) }
            return converted(value) { ($0 as? Substring).map(String.init) }
        case .dateAttributeType:
            return converted(value) { $0 as? Date }
        case .binaryDataAttributeType:
            if let data = value as? Data { return (data, true) }
            return converted(value) { ($0 as? [UInt8]).map { Data($0) } }
        case .UUIDAttributeType:
            return converted(value) { $0 as? UUID }
        case .URIAttributeType:
            return converted(value) { $0 as? URL }
        case .objectIDAttributeType:
            return converted(value) { $0 as? any ObjectIDAttributeValue }
        case .undefinedAttributeType, .transformableAttributeType, .compositeAttributeType:
            return value is NSNull ? (nil, true) : (value, true)
        }
    }

    /// The converted value, nil for `NSNull`, or the value itself marked invalid.
    private static func converted(_ value: Any, _ convert: (Any) -> Any?) -> (value: Any?, isValid: Bool) {
        if let converted = convert(value) { return (converted, true) }
        if value is NSNull { return (nil, true) }
        return (value, false)
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
        case let number as NSNumber: return NSDecimalNumber(converting: number)
        default: return number(from: value).map(NSDecimalNumber.init(converting:))
        }
    }
}
