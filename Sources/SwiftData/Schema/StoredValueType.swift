internal import CoreData

/// A Swift type that a persisted attribute holds as one of Core Data's attribute types.
///
/// Integers are Core Data integers of their width (`Int`, `UInt` and `UInt64` are 64-bit,
/// `Int8` and `UInt8` 16-bit, as Core Data has no 8-bit integer); the other types are the
/// attribute type of the same name.
protocol StoredValue {
    /// The attribute type that holds the value.
    static var attributeType: NSAttributeType { get }
    /// The value as the context object holds it.
    var storedValue: Any { get }
    /// The value from what the context object holds, or nil when it holds another type.
    init?(storedValue: Any)
    /// The value a non-optional property reads when the store holds none.
    static var emptyValue: Self { get }
}

/// An integer that a Core Data integer attribute holds.
protocol StoredInteger: StoredValue, FixedWidthInteger {}

extension StoredInteger {
    var storedValue: Any { NSNumber(value: Int64(truncatingIfNeeded: self)) }
    init?(storedValue: Any) {
        guard let number = storedValue as? NSNumber else { return nil }
        self.init(truncatingIfNeeded: number.int64Value)
    }
    static var emptyValue: Self { 0 }
}

extension Int: StoredInteger { static var attributeType: NSAttributeType { .integer64AttributeType } }
extension Int64: StoredInteger { static var attributeType: NSAttributeType { .integer64AttributeType } }
extension Int32: StoredInteger { static var attributeType: NSAttributeType { .integer32AttributeType } }
extension Int16: StoredInteger { static var attributeType: NSAttributeType { .integer16AttributeType } }
extension Int8: StoredInteger { static var attributeType: NSAttributeType { .integer16AttributeType } }
extension UInt: StoredInteger { static var attributeType: NSAttributeType { .integer64AttributeType } }
extension UInt64: StoredInteger { static var attributeType: NSAttributeType { .integer64AttributeType } }
extension UInt32: StoredInteger { static var attributeType: NSAttributeType { .integer64AttributeType } }
extension UInt16: StoredInteger { static var attributeType: NSAttributeType { .integer32AttributeType } }
extension UInt8: StoredInteger { static var attributeType: NSAttributeType { .integer16AttributeType } }

extension Bool: StoredValue {
    static var attributeType: NSAttributeType { .booleanAttributeType }
    var storedValue: Any { NSNumber(value: self) }
    init?(storedValue: Any) {
        guard let number = storedValue as? NSNumber else { return nil }
        self = number.boolValue
    }
    static var emptyValue: Bool { false }
}

extension Double: StoredValue {
    static var attributeType: NSAttributeType { .doubleAttributeType }
    var storedValue: Any { NSNumber(value: self) }
    init?(storedValue: Any) {
        guard let number = storedValue as? NSNumber else { return nil }
        self = number.doubleValue
    }
    static var emptyValue: Double { 0 }
}

extension Float: StoredValue {
    static var attributeType: NSAttributeType { .floatAttributeType }
    var storedValue: Any { NSNumber(value: self) }
    init?(storedValue: Any) {
        guard let number = storedValue as? NSNumber else { return nil }
        self = number.floatValue
    }
    static var emptyValue: Float { 0 }
}

/// A value the context object holds as it is.
protocol StoredObjectValue: StoredValue {}

extension StoredObjectValue {
    var storedValue: Any { self }
    init?(storedValue: Any) {
        guard let value = storedValue as? Self else { return nil }
        self = value
    }
}

extension String: StoredObjectValue {
    static var attributeType: NSAttributeType { .stringAttributeType }
    static var emptyValue: String { "" }
}

extension Date: StoredObjectValue {
    static var attributeType: NSAttributeType { .dateAttributeType }
    static var emptyValue: Date { Date(timeIntervalSinceReferenceDate: 0) }
}

extension Data: StoredObjectValue {
    static var attributeType: NSAttributeType { .binaryDataAttributeType }
    static var emptyValue: Data { Data() }
}

extension UUID: StoredObjectValue {
    static var attributeType: NSAttributeType { .UUIDAttributeType }
    static var emptyValue: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
}

extension URL: StoredObjectValue {
    static var attributeType: NSAttributeType { .URIAttributeType }
    static var emptyValue: URL { URL(string: "about:blank")! }
}

extension Decimal: StoredValue {
    static var attributeType: NSAttributeType { .decimalAttributeType }
    var storedValue: Any { NSDecimalNumber(decimal: self) }
    init?(storedValue: Any) {
        if let number = storedValue as? NSDecimalNumber {
            self = number.decimalValue
        } else if let decimal = storedValue as? Decimal {
            self = decimal
        } else if let number = storedValue as? NSNumber {
            self = number.decimalValue
        } else {
            return nil
        }
    }
    static var emptyValue: Decimal { 0 }
}
