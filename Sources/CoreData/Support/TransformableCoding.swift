/// Turns the values of transformable attributes into data and back, with the attribute's
/// `ValueTransformer`, as Core Data does.
///
/// Transformers named "unarchive from data" (`NSSecureUnarchiveFromData`, `NSKeyedUnarchiveFromData`,
/// `NSUnarchiveFromData`, and subclasses of `NSSecureUnarchiveFromDataTransformer`) turn data into
/// values, so Core Data applies them in reverse to store a value; any other transformer turns a
/// value into data. Without a name, `NSSecureUnarchiveFromData` is used.
enum TransformableCoding {
    /// The data to store for a value.
    static func encode(_ value: Any, for attribute: NSAttributeDescription) throws -> Data {
        let transformer = self.transformer(for: attribute)
        let encoded = isUnarchiving(transformer) ? transformer.reverseTransformedValue(value) : transformer.transformedValue(value)
        guard let data = encoded as? Data else {
            throw CoreDataError.make(
                NSManagedObjectValidationError,
                "The value of the transformable attribute '\(attribute.name)' could not be turned into data by its value transformer '\(attribute.valueTransformerName ?? NSValueTransformerName.secureUnarchiveFromDataTransformerName.rawValue)'.",
                userInfo: [NSValidationKeyErrorKey: attribute.name, NSValidationValueErrorKey: value]
            )
        }
        return data
    }

    /// The value stored data stands for, or nil when the transformer cannot read it.
    static func decode(_ data: Data, for attribute: NSAttributeDescription) -> Any? {
        let transformer = self.transformer(for: attribute)
        return isUnarchiving(transformer) ? transformer.transformedValue(data) : transformer.reverseTransformedValue(data)
    }

    private static func transformer(for attribute: NSAttributeDescription) -> ValueTransformer {
        let name = attribute.valueTransformerName.map(NSValueTransformerName.init(rawValue:)) ?? .secureUnarchiveFromDataTransformerName
        return ValueTransformer.registered(named: name)
            ?? ValueTransformer.registered(named: .secureUnarchiveFromDataTransformerName)
            ?? NSSecureUnarchiveFromDataTransformer()
    }

    private static func isUnarchiving(_ transformer: ValueTransformer) -> Bool {
        transformer is ArchivingTransformer
    }
}
