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
            return converted(value) { $0 as? NSManagedObjectID }
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

extension NSDecimalNumber {
    /// The decimal value of a number: a double's shortest digits (see `init(shortestDigitsOf:)`).
    convenience init(converting number: NSNumber) {
        if number.isFloatingPointNumber, !(number is NSDecimalNumber) {
            self.init(shortestDigitsOf: number.doubleValue)
        } else {
            self.init(decimal: number.decimalValue)
        }
    }

    /// The decimal with the fewest digits that round-trip a double (12345.6789 stays 12345.6789),
    /// as on Apple platforms: Linux Foundation's `Decimal(Double)` keeps the double's binary
    /// noise. Not-a-number for infinities and NaN, which `Decimal` cannot hold and on which
    /// Foundation's own conversions trap.
    convenience init(shortestDigitsOf double: Double) {
        guard double.isFinite else {
            self.init(decimal: .nan)
            return
        }
        self.init(decimal: Decimal(string: "\(double)", locale: Locale(identifier: "en_US_POSIX")) ?? Decimal(double))
    }
}

extension NSNumber {
    /// The number as a double; for a decimal, the double nearest its digits, which Linux
    /// Foundation's `doubleValue` can miss by a unit in the last place.
    var nearestDoubleValue: Double {
        guard let decimal = self as? NSDecimalNumber else { return doubleValue }
        return Double(decimal.decimalValue.description) ?? doubleValue
    }
}

extension NSNumber {
    /// Whether the number holds a float or a double (as opposed to an integer or a boolean).
    var isFloatingPointNumber: Bool {
        let type = objCType.pointee
        return type == UInt8(ascii: "f") || type == UInt8(ascii: "d")
    }
}
