/// A keyed decoding container that decodes every element the same way, whatever its type, and
/// has no unkeyed or super containers: the composite decoder's and the shape probe's, as a
/// composite holds keyed values only.
protocol ElementDecodingContainer: KeyedDecodingContainerProtocol {
    /// The element of a key.
    func element<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T
}

extension ElementDecodingContainer {
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try element(type, forKey: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try element(type, forKey: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try element(type, forKey: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try element(type, forKey: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try element(type, forKey: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try element(type, forKey: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try element(type, forKey: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try element(type, forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try element(type, forKey: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try element(type, forKey: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try element(type, forKey: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try element(type, forKey: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try element(type, forKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try element(type, forKey: key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try element(type, forKey: key) }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw CompositeCodingErrors.unsupportedContainer("unkeyed", at: codingPath + [key])
    }

    func superDecoder() throws -> any Decoder {
        throw CompositeCodingErrors.unsupportedContainer("super", at: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        throw CompositeCodingErrors.unsupportedContainer("super", at: codingPath + [key])
    }
}
