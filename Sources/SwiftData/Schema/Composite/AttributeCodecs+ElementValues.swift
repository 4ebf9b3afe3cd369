extension AttributeCodecs {
    /// The codec of a value that a composite element holds as one attribute: a `StoredValue`,
    /// or a `RawRepresentable` whose raw value is one; nil for any other type.
    static func elementCodec(for type: Any.Type) -> (any AttributeCodec)? {
        if let stored = type as? any StoredValue.Type {
            return storedCodec(stored)
        }
        if let raw = type as? any RawRepresentable.Type {
            return rawCodec(raw)
        }
        return nil
    }
}
