/// Reading values that arrive as `Any?`: optionals hidden inside `Any`, and the two spellings of
/// "no value" (`nil` and `NSNull`).
enum ValueUnwrapping {
    /// The value with every layer of `Optional` removed; nil when any layer is empty.
    ///
    /// An `Int?` passed through `Any` stays an `Optional` at run time, so `value == nil` is false
    /// even when it holds nothing. Predicates must see through that, as Foundation's bridging does.
    static func unwrapped(_ value: Any?) -> Any? {
        guard let value else { return nil }
        guard let optional = value as? any OptionalUnwrappable else { return value }
        return unwrapped(optional.wrappedAny)
    }

    /// Whether the value is nil, an empty optional, or `NSNull`: predicates treat all three alike.
    static func isNull(_ value: Any?) -> Bool {
        guard let value = unwrapped(value) else { return true }
        return value is NSNull
    }

    /// The value unwrapped, with `NSNull` turned into nil.
    static func nonNull(_ value: Any?) -> Any? {
        let value = unwrapped(value)
        return value is NSNull ? nil : value
    }
}
