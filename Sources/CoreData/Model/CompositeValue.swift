/// The value of a composite attribute: a dictionary keyed by the names of its elements, holding
/// a dictionary for each nested composite, and no key for an element without a value.
enum CompositeValue {
    /// The value at a path of element names, if any.
    static func value(at path: [String], in composite: Any?) -> Any? {
        var current = composite
        for name in path {
            guard let dictionary = current as? [String: Any] else { return nil }
            current = dictionary[name]
        }
        return current is NSNull ? nil : current
    }

    /// The composite with a value set at a path of element names (removed when nil).
    static func setting(_ value: Any?, at path: ArraySlice<String>, in composite: [String: Any]) -> [String: Any] {
        guard let name = path.first else { return composite }
        var result = composite
        if path.count == 1 {
            result[name] = value
        } else {
            let nested = setting(value, at: path.dropFirst(), in: composite[name] as? [String: Any] ?? [:])
            result[name] = nested.isEmpty ? nil : nested
        }
        return result
    }
}
