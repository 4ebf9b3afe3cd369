/// Reads key paths the way key-value coding does (spec §4.1), over:
/// - objects conforming to `KeyValueCodingReadable` (managed objects);
/// - dictionaries (`[String: Any]`, `NSDictionary`), where a missing key reads as nil;
/// - arrays, sets and ordered sets, where a key maps over the elements and a collection operator
///   (`@count`, `@sum`, …) aggregates them;
/// - strings, which answer `length`;
/// - any other Swift value, through its stored properties (`Mirror`), standing in for the
///   key-value coding compliance that Objective-C objects have on Apple platforms.
///
/// The key `self` reads the object itself, as `#self` in a format string.
enum KeyValueReader {
    /// The value at the end of `components`, starting from `object`.
    ///
    /// A collection operator consumes the rest of the path: `items.@sum.price` sums the `price` of
    /// each element of `items`. The path is a slice so that the rest is handed on without copying
    /// it, keeping the cost of a path linear in its length.
    static func value(atKeyPath components: ArraySlice<String>, of object: Any?) throws -> Any? {
        var current = ValueUnwrapping.unwrapped(object)
        var remaining = components
        while let key = remaining.popFirst() {
            if let operatorName = CollectionOperator.name(of: key) {
                return try CollectionOperator.apply(operatorName, to: current, rest: remaining)
            }
            current = try value(forKey: key, of: current)
        }
        return current
    }

    /// The value of one key of `object`; nil when `object` is nil or `NSNull`.
    static func value(forKey key: String, of object: Any?) throws -> Any? {
        guard let object = ValueUnwrapping.nonNull(object) else { return nil }
        if key == "self" {
            return object
        }
        if let readable = object as? any KeyValueCodingReadable {
            return ValueUnwrapping.unwrapped(try readable.keyValue(forKey: key))
        }
        if let lookedUp = DictionaryLookup.lookup(key, in: object) {
            return ValueUnwrapping.unwrapped(lookedUp)
        }
        if let elements = CollectionElements.elements(of: object) {
            let values = try elements.map { try value(forKey: key, of: $0) ?? NSNull() }
            return CollectionElements.isUnordered(object) ? CollectionElements.distinct(values) : values
        }
        if let string = object as? String, key == "length" {
            return NSNumber(value: string.utf16.count)
        }
        if let stored = storedProperty(key, of: object) {
            return ValueUnwrapping.unwrapped(stored)
        }
        throw PredicateEvaluationError.unknownKey(key, typeName: String(describing: type(of: object)))
    }

    /// The stored property named `key`, searching superclasses too; nil when there is none.
    private static func storedProperty(_ key: String, of object: Any) -> Any?? {
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            if let child = current.children.first(where: { $0.label == key }) {
                return .some(child.value)
            }
            mirror = current.superclassMirror
        }
        return nil
    }
}
