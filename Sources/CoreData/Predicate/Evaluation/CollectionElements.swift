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
        var seen = Set<DistinctValue>()
        return values.filter { seen.insert(DistinctValue(value: $0)).inserted }
    }

    /// A value hashed and compared the way predicates compare values (`NSNull` and nil alike,
    /// `1 == 1.0`), which `AnyHashable` does not do for Foundation objects.
    private struct DistinctValue: Hashable {
        let value: Any

        static func == (lhs: DistinctValue, rhs: DistinctValue) -> Bool {
            if let lhs = lhs.value as? ObjectReference, let rhs = rhs.value as? ObjectReference {
                return lhs.referencedObject == rhs.referencedObject
            }
            return ValueComparison.isEqual(lhs.value, rhs.value)
        }

        func hash(into hasher: inout Hasher) {
            if let reference = value as? ObjectReference {
                hasher.combine(reference.referencedObject)
            } else {
                ValueComparison.hash(value, into: &hasher)
            }
        }
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
