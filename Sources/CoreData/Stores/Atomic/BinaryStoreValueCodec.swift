/// Attribute values as the binary store writes them: property-list values (see `BinaryStoreFile`).
enum BinaryStoreValueCodec {
    /// The property-list value of an attribute's value.
    ///
    /// - Throws: The transformer's error for a transformable value it cannot turn into data.
    static func encode(_ value: Any, for attribute: NSAttributeDescription) throws -> BinaryPropertyList.Value {
        switch attribute.attributeType {
        case .decimalAttributeType:
            return .string((value as? NSDecimalNumber)?.stringValue ?? "\(value)")
        case .UUIDAttributeType:
            return .string((value as? UUID)?.uuidString ?? "\(value)")
        case .URIAttributeType:
            return .string((value as? URL)?.absoluteString ?? "\(value)")
        case .objectIDAttributeType:
            return .string((value as? NSManagedObjectID)?.uriRepresentation().absoluteString ?? "\(value)")
        case .transformableAttributeType:
            return .data(try TransformableCoding.encode(value, for: attribute))
        default:
            return try BinaryPropertyList.Value(propertyList: value)
        }
    }

    /// The attribute's value of a property-list value; nil for a value of the wrong kind.
    static func decode(_ value: BinaryPropertyList.Value, for attribute: NSAttributeDescription, coordinator: NSPersistentStoreCoordinator?) -> Any? {
        switch (attribute.attributeType, value) {
        case (.decimalAttributeType, .string(let string)):
            return NSDecimalNumber(string: string)
        case (.UUIDAttributeType, .string(let string)):
            return UUID(uuidString: string)
        case (.URIAttributeType, .string(let string)):
            return URL(string: string)
        case (.objectIDAttributeType, .string(let string)):
            return URL(string: string).flatMap { coordinator?.managedObjectID(forURIRepresentation: $0) }
        case (.transformableAttributeType, .data(let data)):
            return TransformableCoding.decode(data, for: attribute)
        case (_, .reference), (_, .array), (_, .dictionary):
            return nil
        default:
            return value.propertyListObject
        }
    }
}
