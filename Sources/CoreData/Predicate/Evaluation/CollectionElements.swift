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

    /// The values membership operators (`IN`, `CONTAINS`) search: a collection's elements, or a
    /// dictionary's values.
    static func members(of value: Any?) -> [Any]? {
        if let elements = elements(of: value) {
            return elements
        }
        return DictionaryLookup.values(of: value)
    }
}
