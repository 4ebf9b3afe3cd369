/// Encodes a value with a composite shape as the dictionary Core Data holds for a composite
/// attribute: each element's name maps to what an attribute of its type holds (a
/// `StoredValue`'s stored value, a `RawRepresentable`'s raw value), a nested composite's to a
/// dictionary of its own, and a nil element has no key.
struct CompositeEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    fileprivate let node: CompositeEncodingNode

    /// The dictionary of a value; throws when its encoding uses a container a composite cannot
    /// hold (unkeyed, single-value) or a value its element's attribute cannot hold.
    static func dictionary(of value: some Encodable) throws -> [String: Any] {
        let node = CompositeEncodingNode()
        try value.encode(to: CompositeEncoder(codingPath: [], node: node))
        return try node.dictionary()
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(CompositeKeyedEncodingContainer(codingPath: codingPath, node: node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.unsupported("unkeyed", at: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        node.unsupported("single-value", at: codingPath)
    }
}

/// The values encoded into one dictionary, nested dictionaries included.
private final class CompositeEncodingNode {
    private enum Entry {
        case value(Any)
        case nested(CompositeEncodingNode)
    }

    private var entries: [String: Entry] = [:]
    /// Why the dictionary is not the value's: the encoding used a container a composite cannot hold.
    private var failure: EncodingError?

    func set(_ value: Any, for name: String) {
        entries[name] = .value(value)
    }

    func nested(for name: String) -> CompositeEncodingNode {
        if case .nested(let node) = entries[name] { return node }
        let node = CompositeEncodingNode()
        entries[name] = .nested(node)
        return node
    }

    /// Records the use of a container a composite cannot hold, and gives one that rejects every value.
    func unsupported(_ kind: String, at codingPath: [any CodingKey]) -> UnsupportedEncodingContainer {
        failure = CompositeCodingErrors.unsupportedEncoding(kind, at: codingPath)
        return UnsupportedEncodingContainer(codingPath: codingPath, kind: kind)
    }

    func dictionary() throws -> [String: Any] {
        if let failure { throw failure }
        var dictionary: [String: Any] = [:]
        for (name, entry) in entries {
            switch entry {
            case .value(let value): dictionary[name] = value
            case .nested(let node): dictionary[name] = try node.dictionary()
            }
        }
        return dictionary
    }
}

/// The keyed container of a composite value: elements become attribute values or nested dictionaries.
private struct CompositeKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let codingPath: [any CodingKey]
    let node: CompositeEncodingNode

    /// A nil element has no key in the dictionary.
    mutating func encodeNil(forKey key: Key) throws {}

    mutating func encode(_ value: Bool, forKey key: Key) throws { try element(value, forKey: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try element(value, forKey: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try element(value, forKey: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try element(value, forKey: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try element(value, forKey: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try element(value, forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try element(value, forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try element(value, forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try element(value, forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try element(value, forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try element(value, forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try element(value, forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try element(value, forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try element(value, forKey: key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try element(value, forKey: key) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(CompositeKeyedEncodingContainer<NestedKey>(
            codingPath: codingPath + [key], node: node.nested(for: key.stringValue)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        node.unsupported("unkeyed", at: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        _ = node.unsupported("super", at: codingPath)
        return CompositeEncoder(codingPath: codingPath, node: CompositeEncodingNode())
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        _ = node.unsupported("super", at: codingPath + [key])
        return CompositeEncoder(codingPath: codingPath + [key], node: CompositeEncodingNode())
    }

    /// Stores an element: as its attribute's value, or else as a nested dictionary.
    private func element<T: Encodable>(_ value: T, forKey key: Key) throws {
        let path = codingPath + [key]
        guard let codec = AttributeCodecs.elementCodec(for: T.self) else {
            try value.encode(to: CompositeEncoder(codingPath: path, node: node.nested(for: key.stringValue)))
            return
        }
        guard let stored = codec.encode(value) else {
            throw CompositeCodingErrors.unstorable(value, at: path)
        }
        node.set(stored, for: key.stringValue)
    }
}

/// The unkeyed or single-value container a composite value cannot hold: it rejects every value.
private struct UnsupportedEncodingContainer: UnkeyedEncodingContainer, SingleValueEncodingContainer {
    let codingPath: [any CodingKey]
    let kind: String
    var count: Int { 0 }

    mutating func encodeNil() throws { throw CompositeCodingErrors.unsupportedEncoding(kind, at: codingPath) }
    mutating func encode(_ value: Bool) throws { try reject(value) }
    mutating func encode(_ value: String) throws { try reject(value) }
    mutating func encode(_ value: Double) throws { try reject(value) }
    mutating func encode(_ value: Float) throws { try reject(value) }
    mutating func encode(_ value: Int) throws { try reject(value) }
    mutating func encode(_ value: Int8) throws { try reject(value) }
    mutating func encode(_ value: Int16) throws { try reject(value) }
    mutating func encode(_ value: Int32) throws { try reject(value) }
    mutating func encode(_ value: Int64) throws { try reject(value) }
    mutating func encode(_ value: UInt) throws { try reject(value) }
    mutating func encode(_ value: UInt8) throws { try reject(value) }
    mutating func encode(_ value: UInt16) throws { try reject(value) }
    mutating func encode(_ value: UInt32) throws { try reject(value) }
    mutating func encode(_ value: UInt64) throws { try reject(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try reject(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(CompositeKeyedEncodingContainer(codingPath: codingPath, node: CompositeEncodingNode()))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }

    mutating func superEncoder() -> any Encoder {
        CompositeEncoder(codingPath: codingPath, node: CompositeEncodingNode())
    }

    private func reject(_ value: some Encodable) throws {
        throw CompositeCodingErrors.unsupportedEncoding(kind, at: codingPath)
    }
}
