/// Reading the elements of the collections predicates accept: arrays, sets and ordered sets, in
/// their Swift and Foundation forms.
enum CollectionElements {
    /// The elements of an array, set or ordered set; nil for anything else, strings included.
    ///
    /// Managed objects hold to-many relationships as `Set`, `NSSet` or `NSOrderedSet`; literals and
    /// `%@` arguments are usually arrays.
    static func elements(of value: Any?) -> [Any]? {
        guard let value = ValueUnwrapping.nonNull(value), !(value is String) else { return nil }
        if let orderedSet = value as? NSOrderedSet {
            return orderedSet.array
        }
        if let array = value as? [Any] {
            return array
        }
        if let set = value as? NSSet {
            return set.allObjects
        }
        if let set = value as? Set<AnyHashable> {
            return Array(set)
        }
        return nil
    }

    /// Whether `value` is a set, whose elements have no order and no duplicates.
    static func isUnordered(_ value: Any) -> Bool {
        value is NSSet || value is Set<AnyHashable>
    }

    /// The values without repeats, in order of first appearance: what a key read from each
    /// element of a set gives, as `NSSet` does on Apple platforms. Values repeat when they are
    /// equal as predicates compare them, objects when they reference the same object.
    static func distinct(_ values: [Any]) -> [Any] {
        var seen = Set<PredicateValueKey>()
        return values.filter { seen.insert(PredicateValueKey($0)).inserted }
    }

    /// The values membership operators (`IN`, `CONTAINS`) search: a collection's elements, or a
    /// dictionary's values.
    static func members(of value: Any?) -> [Any]? {
        if let elements = elements(of: value) {
            return elements
        }
        return DictionaryLookup.values(of: value)
    }
}
