/// An immutable description of how to order a collection of objects by a property.
///
/// A sort descriptor reads its key path from both objects and orders the values: nil before
/// everything else, numbers numerically, strings with `compare(_:)` (case- and diacritic-sensitive,
/// not localized), dates chronologically.
open class NSSortDescriptor: NSObject, NSCopying {
    private let sortKey: String?
    private let isAscending: Bool

    /// Creates a sort descriptor with a key path and ordering.
    ///
    /// - Parameters:
    ///   - key: The key path to read from the objects being compared, such as `department.name`;
    ///     nil compares the objects themselves.
    ///   - ascending: `true` for ascending order, `false` for descending order.
    public init(key: String?, ascending: Bool) {
        sortKey = key
        isAscending = ascending
        super.init()
    }

    /// The key path the descriptor reads from the objects it compares.
    open var key: String? {
        sortKey
    }

    /// Whether the descriptor orders values in ascending order.
    open var ascending: Bool {
        isAscending
    }

    /// The key path split into its components; nil when the descriptor compares the objects
    /// themselves. The SQL compiler maps these to columns.
    var keyPathComponents: [String]? {
        sortKey.map { $0.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }
    }

    /// A copy of the sort descriptor with the opposite order.
    open var reversedSortDescriptor: Any {
        NSSortDescriptor(key: sortKey, ascending: !isAscending)
    }

    /// Returns the order of two objects by the descriptor's key path and direction.
    ///
    /// - Parameters:
    ///   - object1: The first object.
    ///   - object2: The second object.
    /// - Returns: `.orderedAscending` when `object1` comes first, `.orderedDescending` when
    ///   `object2` does, `.orderedSame` when they tie. A value that cannot be read counts as nil;
    ///   values that cannot be ordered against each other tie.
    open func compare(_ object1: Any, to object2: Any) -> ComparisonResult {
        let order = ValueComparison.sortOrder(value(of: object1), value(of: object2))
        return isAscending ? order : order.reversed
    }

    private func value(of object: Any) -> Any? {
        guard let keyPathComponents else { return object }
        return try? KeyValueReader.value(atKeyPath: keyPathComponents, of: object)
    }

    /// The descriptor as Apple prints it: `(key, ascending, compare:)`.
    open override var description: String {
        "(\(sortKey ?? "(null)"), \(isAscending ? "ascending" : "descending"), compare:)"
    }

    /// Sort descriptors are equal when they have the same key and direction.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSSortDescriptor else { return false }
        return sortKey == other.sortKey && isAscending == other.isAscending
    }

    /// A hash value consistent with `isEqual(_:)`.
    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(sortKey)
        hasher.combine(isAscending)
        return hasher.finalize()
    }

    /// Returns the sort descriptor itself: sort descriptors are immutable.
    open func copy(with zone: NSZone? = nil) -> Any {
        self
    }
}
