// Sort descriptors made from Swift key paths.
//
// Apple's initializers read the key path's Objective-C name; Linux has none, so a key path into
// an `NSManagedObject` subclass is named by the class's `propertyNamesByKeyPath` table (generated
// classes have one) or else read once on a probe object that records the keys its accessors ask
// for (see `KeyPathNaming`). The descriptor then has that string key and behaves exactly like
// one made with it, in memory and in SQL fetches.
extension NSSortDescriptor {
    /// Creates a sort descriptor with a Swift key path and ordering, comparing values with
    /// `compare:`.
    ///
    /// For a key path into an `NSManagedObject` subclass, such as `\Movie.title` or
    /// `\Character.movie.title`, `key` is the property's key path (`title`, `movie.title`). A
    /// key path the class lists in `propertyNamesByKeyPath`, as generated classes list their
    /// properties, is named from there. Otherwise the class must be the `managedObjectClassName`
    /// of an entity of a model in use by a coordinator, and its accessors must read properties
    /// through `value(forKey:)` or generated accessors. When no key can be found, `key` is nil:
    /// the descriptor sorts in memory by reading the Swift key path, and a SQLite fetch using it
    /// throws.
    ///
    /// - Parameters:
    ///   - keyPath: The key path to the property to compare.
    ///   - ascending: `true` for ascending order, `false` for descending order.
    public convenience init<Root, Value>(keyPath: KeyPath<Root, Value>, ascending: Bool) {
        self.init(key: NSSortDescriptor.key(of: keyPath), ascending: ascending, comparison: .selector(SortComparison.compare.selector), keyPath: keyPath)
    }

    /// Creates a sort descriptor with a Swift key path, ordering, and comparator block.
    ///
    /// The key is found as by `init(keyPath:ascending:)`. The block receives the values at the key
    /// path, never nil; the descriptor sorts in memory only.
    ///
    /// - Parameters:
    ///   - keyPath: The key path to the property to compare.
    ///   - ascending: `true` for ascending order, `false` for descending order.
    ///   - cmptr: The block that orders two values in ascending order.
    public convenience init<Root, Value>(keyPath: KeyPath<Root, Value>, ascending: Bool, comparator cmptr: @escaping Comparator) {
        self.init(key: NSSortDescriptor.key(of: keyPath), ascending: ascending, comparison: .comparator(ComparatorBox(cmptr)), keyPath: keyPath)
    }

    private static func key<Root, Value>(of keyPath: KeyPath<Root, Value>) -> String? {
        (Root.self as? any KeyPathNaming.Type)?.keyValueCodingKeyPath(of: keyPath)
    }
}
