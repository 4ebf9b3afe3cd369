internal import CoreData

/// A codec whose attribute is composite, with the elements it describes.
protocol CompositeAttributeCodec: AttributeCodec {
    /// The element attributes of the composite attribute.
    func elementDescriptions() -> [NSAttributeDescription]
}

/// `Codable` values with a composite shape (structures of attribute values, nested or not),
/// held as a composite attribute's dictionary, as Apple's SwiftData stores them.
struct CompositeValueCodec<Value: Codable>: CompositeAttributeCodec {
    /// The elements of the composite attribute.
    let shape: CompositeShape

    /// The codec of a type, or nil when it has no composite shape (SwiftData then stores its
    /// values as property lists).
    init?(_ type: Value.Type) {
        guard let shape = CompositeShapeProbe.probe(type)?.shape else { return nil }
        self.shape = shape
    }

    var attributeType: NSAttributeType { .compositeAttributeType }

    func decode(_ stored: Any) -> Any? {
        guard let values = stored as? [String: Any] else { return nil }
        return try? CompositeDecoder.value(Value.self, from: values)
    }

    func encode(_ value: Any) -> Any? {
        guard let value = value as? Value else { return nil }
        return try? CompositeEncoder.dictionary(of: value)
    }

    /// The value the type's decoding makes of the zero values its shape was found with.
    var emptyValue: Any {
        guard let zero = CompositeShapeProbe.probe(Value.self)?.zeroValue else { return Optional<Value>.none as Any }
        return zero
    }

    func elementDescriptions() -> [NSAttributeDescription] {
        shape.elementDescriptions()
    }
}
