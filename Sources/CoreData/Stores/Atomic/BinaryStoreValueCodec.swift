/// Attribute values as the binary store writes them: property-list values (see `BinaryStoreFormat`).
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
        case .transformableAttributeType:
            return .data(try TransformableCoding.encode(value, for: attribute))
        default:
            return try BinaryPropertyList.Value(propertyList: value)
        }
    }

    /// The attribute's value of a property-list value; nil for a value of another kind than
    /// the attribute's type, or one that cannot be read as it.
    static func decode(_ value: BinaryPropertyList.Value, for attribute: NSAttributeDescription) -> Any? {
        switch (attribute.attributeType, value) {
        case (.stringAttributeType, .string(let string)):
            return string
        case (.integer16AttributeType, .number(let number)), (.integer32AttributeType, .number(let number)),
             (.integer64AttributeType, .number(let number)), (.doubleAttributeType, .number(let number)),
             (.floatAttributeType, .number(let number)), (.booleanAttributeType, .number(let number)):
            return number
        case (.dateAttributeType, .date(let date)):
            return date
        case (.binaryDataAttributeType, .data(let data)):
            return data
        case (.decimalAttributeType, .string(let string)):
            let number = NSDecimalNumber(string: string)
            return number == NSDecimalNumber.notANumber ? nil : number
        case (.UUIDAttributeType, .string(let string)):
            return UUID(uuidString: string)
        case (.URIAttributeType, .string(let string)):
            return URL(string: string)
        case (.transformableAttributeType, .data(let data)):
            return TransformableCoding.decode(data, for: attribute)
        default:
            return nil
        }
    }
}
