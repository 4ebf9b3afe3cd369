internal import CoreData

/// How a persisted attribute's Swift values become the values its context object holds, and back.
protocol AttributeCodec: Sendable {
    /// The attribute type that holds the values.
    var attributeType: NSAttributeType { get }
    /// The Swift value of a held value, or nil when the held value cannot be read as one.
    func decode(_ stored: Any) -> Any?
    /// The held value of a Swift value (never an optional).
    func encode(_ value: Any) -> Any?
    /// What a non-optional property reads when nothing is held.
    var emptyValue: Any { get }
}

/// A codec of values Core Data holds as they are, whose scalars may bypass it.
protocol StoredScalarCodec {}

/// Values Core Data holds directly: numbers, strings, dates, data, UUIDs, URLs, decimals.
struct StoredValueCodec<Value: StoredValue>: AttributeCodec, StoredScalarCodec {
    var attributeType: NSAttributeType { Value.attributeType }
    func decode(_ stored: Any) -> Any? { Value(storedValue: stored) }
    func encode(_ value: Any) -> Any? { (value as? Value)?.storedValue }
    var emptyValue: Any { Value.emptyValue }
}

/// Enumerations with a raw value, stored as the raw value.
struct RawValueCodec<Value: RawRepresentable, Raw: StoredValue>: AttributeCodec {
    var attributeType: NSAttributeType { Raw.attributeType }

    func decode(_ stored: Any) -> Any? {
        (Raw(storedValue: stored) as? Value.RawValue).flatMap(Value.init(rawValue:))
    }

    func encode(_ value: Any) -> Any? {
        ((value as? Value)?.rawValue as? Raw)?.storedValue
    }

    /// The case of the empty raw value, or else the first case of a `CaseIterable` enumeration:
    /// what a non-optional property reads when the store holds no valid raw value.
    var emptyValue: Any {
        if let empty = (Raw.emptyValue as? Value.RawValue).flatMap(Value.init(rawValue:)) { return empty }
        guard let cases = Value.self as? any CaseIterable.Type else { return Optional<Value>.none as Any }
        return Self.firstCase(of: cases) ?? Optional<Value>.none as Any
    }

    private static func firstCase<Cases: CaseIterable>(of type: Cases.Type) -> Any? {
        Cases.allCases.first
    }
}

/// Other `Codable` values (arrays, sets, dictionaries, enumerations with associated values,
/// structures that are not made of attribute values), stored as binary property lists.
struct CodableValueCodec<Value: Codable>: AttributeCodec {
    var attributeType: NSAttributeType { .binaryDataAttributeType }

    func decode(_ stored: Any) -> Any? {
        guard let data = stored as? Data else { return nil }
        return try? PropertyListDecoder().decode(Value.self, from: data)
    }

    func encode(_ value: Any) -> Any? {
        guard let value = value as? Value else { return nil }
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return try? encoder.encode(value)
    }

    /// An empty collection, for a collection type (it decodes from an empty property list of
    /// its kind); a type without an empty value has none.
    var emptyValue: Any {
        let encoder = PropertyListEncoder()
        let empties = [try? encoder.encode([String]()), try? encoder.encode([String: String]())]
        for case let empty? in empties {
            if let value = try? PropertyListDecoder().decode(Value.self, from: empty) { return value }
        }
        return Optional<Value>.none as Any
    }
}

/// Values a value transformer stores (`@Attribute(.transformable(by:))`): held as they are.
struct TransformedValueCodec: AttributeCodec {
    var attributeType: NSAttributeType { .transformableAttributeType }
    func decode(_ stored: Any) -> Any? { stored }
    func encode(_ value: Any) -> Any? { value }
    var emptyValue: Any { Optional<Any>.none as Any }
}

/// The codecs of Swift types.
enum AttributeCodecs {
    /// The codec of a Swift type (not an optional), or nil when SwiftData cannot persist the
    /// type as an attribute.
    static func codec(for type: Any.Type) -> (any AttributeCodec)? {
        if let stored = type as? any StoredValue.Type {
            return storedCodec(stored)
        }
        if let raw = type as? any RawRepresentable.Type, let codec = rawCodec(raw) {
            return codec
        }
        if let codable = type as? any Codable.Type {
            return compositeCodec(codable) ?? codableCodec(codable)
        }
        return nil
    }

    static func storedCodec<Value: StoredValue>(_ type: Value.Type) -> any AttributeCodec {
        StoredValueCodec<Value>()
    }

    static func rawCodec<Value: RawRepresentable>(_ type: Value.Type) -> (any AttributeCodec)? {
        guard let raw = Value.RawValue.self as? any StoredValue.Type else { return nil }
        return rawCodec(type, raw)
    }

    private static func rawCodec<Value: RawRepresentable, Raw: StoredValue>(_ type: Value.Type, _ raw: Raw.Type) -> any AttributeCodec {
        RawValueCodec<Value, Raw>()
    }

    /// A structure of attribute values is a composite attribute, as Apple's SwiftData stores it.
    private static func compositeCodec<Value: Codable>(_ type: Value.Type) -> (any AttributeCodec)? {
        CompositeValueCodec(type)
    }

    /// Other `Codable` values (arrays, enumerations with payloads) are property lists.
    private static func codableCodec<Value: Codable>(_ type: Value.Type) -> any AttributeCodec {
        CodableValueCodec<Value>()
    }
}
