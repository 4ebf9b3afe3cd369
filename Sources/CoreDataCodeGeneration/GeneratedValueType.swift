import CoreData

/// The Swift type of a generated property and how its accessors convert the stored value.
///
/// Object types are optional, as Xcode generates them whatever the attribute's optionality;
/// scalar types (`usesScalarValueType`) are not, and read as zero when the value is nil.
enum GeneratedValueType: Equatable {
    /// A value read with `as?`: `String?`, `NSNumber?`, `Date?`…
    case object(String)
    /// A number exposed as a Swift scalar, read and written by `NSManagedObject`'s
    /// `scalarValue(atPropertyIndex:named:)` and `setScalarValue(_:atPropertyIndex:named:)`.
    case scalar(String)

    init(_ attribute: NSAttributeDescription) {
        let scalar = attribute.usesScalarValueType == true
        switch attribute.attributeType {
        case .integer16AttributeType: self = scalar ? .scalar("Int16") : .object("NSNumber")
        case .integer32AttributeType: self = scalar ? .scalar("Int32") : .object("NSNumber")
        case .integer64AttributeType: self = scalar ? .scalar("Int64") : .object("NSNumber")
        case .doubleAttributeType: self = scalar ? .scalar("Double") : .object("NSNumber")
        case .floatAttributeType: self = scalar ? .scalar("Float") : .object("NSNumber")
        case .booleanAttributeType: self = scalar ? .scalar("Bool") : .object("NSNumber")
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
        case .scalar(let type): type
        }
    }

    /// The getter's expression, given the arguments that find the property (see
    /// `GeneratedProperty.location`): scalars read their stored word without an `NSNumber`.
    func read(at location: String) -> String {
        switch self {
        case .object(let type): "value(\(location)) as? \(type)"
        case .scalar: "scalarValue(\(location))"
        }
    }

    /// The setter's statement, given the arguments that find the property.
    func write(at location: String) -> String {
        switch self {
        case .object: "setValue(newValue, \(location))"
        case .scalar: "setScalarValue(newValue, \(location))"
        }
    }
}
