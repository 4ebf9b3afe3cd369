import Synchronization

/// Finds the composite shape of a `Decodable` type without an instance of it, by running the
/// type's `init(from:)` against a decoder that answers every key with a zero value and records
/// the keys asked for: `decode(_:forKey:)` makes a required element, `decodeIfPresent(_:forKey:)`
/// (or `contains(_:)`, `decodeNil(forKey:)`) an optional one.
///
/// A type has no composite shape when its decoding (or a member's) uses an unkeyed or
/// single-value container, enumerates its keys (dictionaries, enumerations), asks for no key,
/// refers to itself, or throws on the zero values: SwiftData then stores it whole, as a
/// property list.
struct CompositeShapeProbe: Decoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    fileprivate let recorder: CompositeShapeRecorder
    /// The types being probed, outermost first: a member of one of them makes the shape infinite.
    fileprivate let probedTypes: [ObjectIdentifier]

    /// The shape of a type, and the value its decoding made from the zero values; nil when the
    /// type has no composite shape.
    static func probe<Value: Decodable>(_ type: Value.Type) -> (shape: CompositeShape, zeroValue: Value)? {
        let recorder = CompositeShapeRecorder()
        let probe = CompositeShapeProbe(codingPath: [], recorder: recorder, probedTypes: [ObjectIdentifier(type)])
        guard let value = try? Value(from: probe), let shape = recorder.shape else { return nil }
        return (shape, value)
    }

    /// The shape of a type, or nil when it has none; probed once per type, as translating each
    /// fetch's predicate and sort descriptors asks again.
    static func shape(of type: any Decodable.Type) -> CompositeShape? {
        let key = ObjectIdentifier(type)
        if let known = knownShapes.withLock({ $0[key] }) { return known }
        let shape = probe(type)?.shape
        knownShapes.withLock { $0[key] = shape }
        return shape
    }

    private static let knownShapes = Mutex<[ObjectIdentifier: CompositeShape?]>([:])

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ProbingKeyedContainer(codingPath: codingPath, recorder: recorder, probedTypes: probedTypes))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw CompositeCodingErrors.unsupportedContainer("unkeyed", at: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw CompositeCodingErrors.unsupportedContainer("single-value", at: codingPath)
    }
}

/// What a probe learns of the keys of one keyed value.
private final class CompositeShapeRecorder {
    /// How an element holds its value: known once asked for, or a nested container's, known
    /// once its decoding is done.
    private enum RecordedKind {
        case known(CompositeShape.Kind)
        case nested(CompositeShapeRecorder)
    }

    private var elements: [(name: String, kind: RecordedKind, isOptional: Bool)] = []
    private var keysAskedIfPresent: Set<String> = []
    /// Whether the decoding asked for all the keys present, as dictionaries and enumerations do.
    var enumeratedKeys = false

    /// The shape recorded, or nil when the decoding enumerated its keys or asked for none.
    var shape: CompositeShape? {
        guard !enumeratedKeys, !elements.isEmpty else { return nil }
        var shapeElements: [CompositeShape.Element] = []
        for element in elements {
            guard let kind = Self.kind(of: element.kind) else { return nil }
            shapeElements.append(CompositeShape.Element(name: element.name, kind: kind, isOptional: element.isOptional))
        }
        return CompositeShape(elements: shapeElements)
    }

    private static func kind(of recorded: RecordedKind) -> CompositeShape.Kind? {
        switch recorded {
        case .known(let kind): kind
        case .nested(let recorder): recorder.shape.map(CompositeShape.Kind.composite)
        }
    }

    func askedIfPresent(_ name: String) {
        keysAskedIfPresent.insert(name)
        if let index = elements.firstIndex(where: { $0.name == name }) {
            elements[index].isOptional = true
        }
    }

    func asked(_ name: String, for kind: CompositeShape.Kind) {
        record(name, .known(kind))
    }

    func askedForNested(_ name: String) -> CompositeShapeRecorder {
        let nested = CompositeShapeRecorder()
        record(name, .nested(nested))
        return nested
    }

    private func record(_ name: String, _ kind: RecordedKind) {
        let isOptional = keysAskedIfPresent.contains(name)
        if let index = elements.firstIndex(where: { $0.name == name }) {
            elements[index].kind = kind
            elements[index].isOptional = elements[index].isOptional || isOptional
        } else {
            elements.append((name, kind, isOptional))
        }
    }
}

/// The keyed container of a probe: every key is present and holds a zero value.
private struct ProbingKeyedContainer<Key: CodingKey>: ElementDecodingContainer {
    let codingPath: [any CodingKey]
    let recorder: CompositeShapeRecorder
    let probedTypes: [ObjectIdentifier]

    var allKeys: [Key] {
        recorder.enumeratedKeys = true
        return []
    }

    func contains(_ key: Key) -> Bool {
        recorder.askedIfPresent(key.stringValue)
        return true
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        recorder.askedIfPresent(key.stringValue)
        return false
    }


    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let nested = ProbingKeyedContainer<NestedKey>(
            codingPath: codingPath + [key], recorder: recorder.askedForNested(key.stringValue), probedTypes: probedTypes)
        return KeyedDecodingContainer(nested)
    }

    /// The zero value of an element: an attribute's empty value, or a nested value probed in turn.
    func element<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let path = codingPath + [key]
        if let codec = AttributeCodecs.elementCodec(for: type) {
            guard let zero = codec.emptyValue as? T else {
                throw CompositeCodingErrors.noZeroValue(of: type, at: path)
            }
            let attributeType = codec.attributeType
            recorder.asked(key.stringValue, for: type is any StoredValue.Type ? .value(attributeType) : .rawValue(attributeType))
            return zero
        }
        guard !probedTypes.contains(ObjectIdentifier(type)) else {
            throw CompositeCodingErrors.recursive(type, at: path)
        }
        let probe = CompositeShapeProbe(
            codingPath: path, recorder: recorder.askedForNested(key.stringValue),
            probedTypes: probedTypes + [ObjectIdentifier(type)])
        return try T(from: probe)
    }
}
