import CoreData

/// The Swift type of a generated property and how its accessors convert the stored value.
///
/// Object types are optional, as Xcode generates them whatever the attribute's optionality;
/// scalar types (`usesScalarValueType`) are not, and read as zero when the value is nil.
enum GeneratedValueType: Equatable {
    /// A value read with `as?`: `String?`, `NSNumber?`, `Date?`…
    case object(String)
    /// A number stored as `NSNumber`, exposed as a Swift scalar through one of its accessors.
    case scalar(String, numberAccessor: String, zero: String)

    init(_ attribute: NSAttributeDescription) {
        let scalar = attribute.usesScalarValueType == true
        switch attribute.attributeType {
        case .integer16AttributeType: self = scalar ? .scalar("Int16", numberAccessor: "int16Value", zero: "0") : .object("NSNumber")
        case .integer32AttributeType: self = scalar ? .scalar("Int32", numberAccessor: "int32Value", zero: "0") : .object("NSNumber")
        case .integer64AttributeType: self = scalar ? .scalar("Int64", numberAccessor: "int64Value", zero: "0") : .object("NSNumber")
        case .doubleAttributeType: self = scalar ? .scalar("Double", numberAccessor: "doubleValue", zero: "0") : .object("NSNumber")
        case .floatAttributeType: self = scalar ? .scalar("Float", numberAccessor: "floatValue", zero: "0") : .object("NSNumber")
        case .booleanAttributeType: self = scalar ? .scalar("Bool", numberAccessor: "boolValue", zero: "false") : .object("NSNumber")
        case .decimalAttributeType: self = .object("NSDecimalNumber")
        case .stringAttributeType: self = .object("String")
        case .dateAttributeType: self = .object("Date")
        case .binaryDataAttributeType: self = .object("Data")
        case .UUIDAttributeType: self = .object("UUID")
        case .URIAttributeType: self = .object("URL")
        case .objectIDAttributeType: self = .object("NSManagedObjectID")
        case .compositeAttributeType: self = .object("[String: Any]")
        case .transformableAttributeType: self = .object(attribute.attributeValueClassName.flatMap { $0.isEmpty ? nil : $0 } ?? "NSObject")
        case .undefinedAttributeType: self = .object("NSObject")
        }
    }

    /// The property's declared type.
    var declaration: String {
        switch self {
        case .object(let type): "\(type)?"
        case .scalar(let type, _, _): type
        }
    }

    /// The getter's expression, given the expression reading the stored value.
    func read(_ stored: String) -> String {
        switch self {
        case .object(let type): "\(stored) as? \(type)"
        case .scalar(_, let accessor, let zero): "(\(stored) as? NSNumber)?.\(accessor) ?? \(zero)"
        }
    }

    /// The value the setter stores for `newValue`.
    var written: String {
        switch self {
        case .object: "newValue"
        case .scalar: "NSNumber(value: newValue)"
        }
    }
}
