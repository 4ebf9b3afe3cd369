/// The errors of encoding a value as, or decoding it from, a composite attribute's dictionary.
/// Callers never show them: a value that does not fit falls back to its property-list storage.
enum CompositeCodingErrors {
    static func unsupportedContainer(_ kind: String, at codingPath: [any CodingKey]) -> DecodingError {
        DecodingError.typeMismatch(
            [String: Any].self,
            DecodingError.Context(codingPath: codingPath, debugDescription: "A composite attribute holds keyed values only, not a \(kind) container."))
    }

    static func noZeroValue(of type: Any.Type, at codingPath: [any CodingKey]) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(
            codingPath: codingPath,
            debugDescription: "\(type) has no case for the empty raw value and is not CaseIterable."))
    }

    static func recursive(_ type: Any.Type, at codingPath: [any CodingKey]) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(
            codingPath: codingPath, debugDescription: "\(type) contains itself, so its composite shape has no end."))
    }

    static func unsupportedEncoding(_ kind: String, at codingPath: [any CodingKey]) -> EncodingError {
        EncodingError.invalidValue(
            [String: Any](),
            EncodingError.Context(codingPath: codingPath, debugDescription: "A composite attribute holds keyed values only, not a \(kind) container."))
    }

    static func unstorable(_ value: Any, at codingPath: [any CodingKey]) -> EncodingError {
        EncodingError.invalidValue(
            value, EncodingError.Context(codingPath: codingPath, debugDescription: "\(type(of: value)) has no value its attribute can hold."))
    }

    static func mismatch(_ type: Any.Type, at codingPath: [any CodingKey]) -> DecodingError {
        DecodingError.typeMismatch(
            type, DecodingError.Context(codingPath: codingPath, debugDescription: "The composite holds no \(type) here."))
    }
}
