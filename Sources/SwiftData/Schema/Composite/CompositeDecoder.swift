/// Decodes a value with a composite shape from the dictionary Core Data holds for a composite
/// attribute (see `CompositeEncoder`): a missing key reads as nil, and a required element that
/// is missing or holds a value of another type makes the decoding throw.
struct CompositeDecoder: Decoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    let values: [String: Any]

    /// The value a dictionary holds.
    static func value<Value: Decodable>(_ type: Value.Type, from values: [String: Any]) throws -> Value {
        try Value(from: CompositeDecoder(codingPath: [], values: values))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(CompositeKeyedDecodingContainer(codingPath: codingPath, values: values))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw CompositeCodingErrors.unsupportedContainer("unkeyed", at: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw CompositeCodingErrors.unsupportedContainer("single-value", at: codingPath)
    }
}

/// The keyed container over a composite value's dictionary.
private struct CompositeKeyedDecodingContainer<Key: CodingKey>: ElementDecodingContainer {
    let codingPath: [any CodingKey]
    let values: [String: Any]

    var allKeys: [Key] { values.keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { values[key.stringValue] != nil }

    /// A nil element has no key.
    func decodeNil(forKey key: Key) throws -> Bool { values[key.stringValue] == nil }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(CompositeKeyedDecodingContainer<NestedKey>(
            codingPath: codingPath + [key], values: try nestedValues(forKey: key)))
    }

    /// An element's value: from its attribute's value, or else from a nested dictionary.
    func element<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let codec = AttributeCodecs.elementCodec(for: type) else {
            return try T(from: CompositeDecoder(codingPath: codingPath + [key], values: nestedValues(forKey: key)))
        }
        guard let value = codec.decode(try stored(forKey: key)) as? T else {
            throw CompositeCodingErrors.mismatch(type, at: codingPath + [key])
        }
        return value
    }

    private func nestedValues(forKey key: Key) throws -> [String: Any] {
        guard let values = try stored(forKey: key) as? [String: Any] else {
            throw CompositeCodingErrors.mismatch([String: Any].self, at: codingPath + [key])
        }
        return values
    }

    private func stored(forKey key: Key) throws -> Any {
        guard let value = values[key.stringValue] else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath, debugDescription: "The composite holds no value for \(key.stringValue)."))
        }
        return value
    }
}
