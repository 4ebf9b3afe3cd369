/// Reading dictionaries, which predicates treat as objects whose keys are the dictionary's keys.
enum DictionaryLookup {
    /// Looks up `key` when `value` is a dictionary: `.some(nil)` for a missing key, nil when
    /// `value` is not a dictionary at all.
    static func lookup(_ key: String, in value: Any) -> Any?? {
        if let dictionary = value as? [String: Any] {
            return .some(dictionary[key])
        }
        if let dictionary = value as? NSDictionary {
            return .some(dictionary.object(forKey: key))
        }
        if let dictionary = value as? [AnyHashable: Any] {
            return .some(dictionary[AnyHashable(key)])
        }
        return nil
    }

    /// The values of a dictionary, or nil when `value` is not one.
    static func values(of value: Any?) -> [Any]? {
        guard let value = ValueUnwrapping.nonNull(value) else { return nil }
        if let dictionary = value as? [AnyHashable: Any] {
            return Array(dictionary.values)
        }
        if let dictionary = value as? NSDictionary {
            return dictionary.allValues
        }
        return nil
    }
}
