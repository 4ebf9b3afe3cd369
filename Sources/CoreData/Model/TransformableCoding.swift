/// Turns the values of transformable attributes into data and back, with the attribute's
/// `ValueTransformer`, as Core Data does.
///
/// Transformers named "unarchive from data" (`NSSecureUnarchiveFromData`, `NSKeyedUnarchiveFromData`,
/// and subclasses of `NSSecureUnarchiveFromDataTransformer`) turn data into values, so Core Data
/// applies them in reverse to store a value; any other transformer turns a value into data.
/// Without a name, `NSKeyedUnarchiveFromData` is used, which archives any class that adopts
/// `NSCoding`, as Apple's Core Data does; it logs a warning for such attributes, as Apple's does.
package enum TransformableCoding {
    /// The data to store for a value.
    package static func encode(_ value: Any, for attribute: NSAttributeDescription) throws -> Data {
        let transformer = self.transformer(for: attribute)
        let encoded = isUnarchiving(transformer) ? transformer.reverseTransformedValue(value) : transformer.transformedValue(value)
        guard let data = encoded as? Data else {
            throw CoreDataError.make(
                NSManagedObjectValidationError,
                "The value of the transformable attribute '\(attribute.name)' could not be turned into data by its value transformer '\(attribute.valueTransformerName ?? NSValueTransformerName.keyedUnarchiveFromData.rawValue)'.",
                userInfo: [NSValidationKeyErrorKey: attribute.name, NSValidationValueErrorKey: value]
            )
        }
        return data
    }

    /// The value stored data stands for, or nil when the transformer cannot read it.
    package static func decode(_ data: Data, for attribute: NSAttributeDescription) -> Any? {
        let transformer = self.transformer(for: attribute)
        return isUnarchiving(transformer) ? transformer.transformedValue(data) : transformer.reverseTransformedValue(data)
    }

    /// The transformer for `attribute`, after logging the warning about it, if any, once.
    private static func transformer(for attribute: NSAttributeDescription) -> ValueTransformer {
        let resolved = resolveTransformer(for: attribute)
        if let warning = resolved.warning {
            WarningLog.shared.warnOnce(warning, to: CoreDataLog.model)
        }
        return resolved.transformer
    }

    /// The transformer Core Data uses for `attribute`, with the warning Apple's Core Data logs
    /// about it: the transformer registered under the attribute's `valueTransformerName` (or, for
    /// Foundation's `NSSecureUnarchiveFromDataTransformer`, named by its class, as Xcode names
    /// it); without a name, or when none is registered under it, `NSKeyedUnarchiveFromData`.
    static func resolveTransformer(for attribute: NSAttributeDescription) -> (transformer: ValueTransformer, warning: String?) {
        let keyed = ValueTransformer.registered(named: .keyedUnarchiveFromData) ?? KeyedUnarchiveFromDataTransformer()
        guard let name = attribute.valueTransformerName, !name.isEmpty else {
            return (keyed, insecureTransformerWarning(for: attribute))
        }
        guard let registered = ValueTransformer.registered(named: NSValueTransformerName(rawValue: name)) else {
            let entity = attribute.owner?.name ?? ""
            return (keyed, "no NSValueTransformer with class name '\(name)' was found for attribute '\(attribute.name)' on entity '\(entity)'")
        }
        return (registered, registered is KeyedUnarchiveFromDataTransformer ? insecureTransformerWarning(for: attribute) : nil)
    }

    /// Apple's warning for an attribute that archives without secure coding.
    private static func insecureTransformerWarning(for attribute: NSAttributeDescription) -> String {
        let entity = attribute.owner?.name ?? ""
        return "Property '\(attribute.name)' on Entity '\(entity)' is using nil or an insecure NSValueTransformer.  Please switch to using \"\(NSValueTransformerName.secureUnarchiveFromDataTransformerName.rawValue)\" or a subclass of NSSecureUnarchiveFromDataTransformer instead."
    }

    private static func isUnarchiving(_ transformer: ValueTransformer) -> Bool {
        transformer is ArchivingTransformer
    }
}
