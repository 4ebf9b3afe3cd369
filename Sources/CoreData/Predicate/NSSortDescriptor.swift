/// An immutable description of how to order a collection of objects by a property.
///
/// A sort descriptor reads its key path from both objects and orders the values: nil before
/// everything else, then by its comparison. The default comparison, `compare:`, orders numbers
/// numerically, strings by their UTF-8 bytes (case- and diacritic-sensitive, not localized: the
/// order Apple's SQLite store gives them) and dates chronologically. A selector can name another
/// string comparison (see `SortComparison`), and a comparator block can replace it entirely.
///
/// Fetches from a SQLite store order strings with the same comparison, so a fetch and sorting
/// in memory agree. A comparator block, or a selector other than `compare:`,
/// `caseInsensitiveCompare:`, `localizedCompare:`, `localizedCaseInsensitiveCompare:` and
/// `localizedStandardCompare:`, makes such a fetch throw.
open class NSSortDescriptor: NSObject, NSCopying {
    /// How a sort descriptor orders two values.
    enum Comparison {
        /// A comparison method, named by its selector.
        case selector(Selector)
        /// A comparator block; equal descriptors share the box, since blocks cannot be compared.
        case comparator(ComparatorBox)
    }

    /// A comparator block with an identity.
    final class ComparatorBox {
        let comparator: Comparator

        init(_ comparator: @escaping Comparator) {
            self.comparator = comparator
        }
    }

    private let sortKey: String?
    private let isAscending: Bool
    let comparison: Comparison
    /// The Swift key path the descriptor was made from, if any.
    private let swiftKeyPath: AnyKeyPath?

    // Apple's three string-key initializers are designated, so subclasses can call them; Swift
    // lets designated initializers delegate to no other, hence each sets every property.

    /// Creates a sort descriptor with a key path and ordering, comparing values with `compare:`.
    ///
    /// - Parameters:
    ///   - key: The key path to read from the objects being compared, such as `department.name`;
    ///     nil compares the objects themselves.
    ///   - ascending: `true` for ascending order, `false` for descending order.
    public init(key: String?, ascending: Bool) {
        sortKey = key
        isAscending = ascending
        comparison = .selector(SortComparison.compare.selector)
        swiftKeyPath = nil
        super.init()
    }

    /// Creates a sort descriptor with a key path, ordering, and comparison method.
    ///
    /// - Parameters:
    ///   - key: The key path to read from the objects being compared; nil compares the objects
    ///     themselves.
    ///   - ascending: `true` for ascending order, `false` for descending order.
    ///   - selector: The method that compares two values, such as `localizedStandardCompare:`;
    ///     nil means `compare:`. String methods order strings; other values are ordered as
    ///     `compare:` orders them. A method this implementation does not know orders nothing:
    ///     `compare(_:to:)` answers `.orderedSame`, and fetches using the descriptor throw.
    public init(key: String?, ascending: Bool, selector: Selector?) {
        sortKey = key
        isAscending = ascending
        comparison = .selector(selector ?? SortComparison.compare.selector)
        swiftKeyPath = nil
        super.init()
    }

    /// Creates a sort descriptor with a key path, ordering, and comparator block.
    ///
    /// The block receives the values read at the key path, never nil: nil values come before all
    /// others, as with a selector. Such a descriptor sorts in memory only; a fetch from a SQLite
    /// store that uses it throws.
    ///
    /// - Parameters:
    ///   - key: The key path to read from the objects being compared; nil compares the objects
    ///     themselves.
    ///   - ascending: `true` for ascending order, `false` for descending order.
    ///   - cmptr: The block that orders two values in ascending order.
    public init(key: String?, ascending: Bool, comparator cmptr: @escaping Comparator) {
        sortKey = key
        isAscending = ascending
        comparison = .comparator(ComparatorBox(cmptr))
        swiftKeyPath = nil
        super.init()
    }

    /// Creates a sort descriptor from all its parts: for Swift key paths, and for reversing.
    init(key: String?, ascending: Bool, comparison: Comparison, keyPath: AnyKeyPath?) {
        sortKey = key
        isAscending = ascending
        self.comparison = comparison
        swiftKeyPath = keyPath
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

    /// The method that compares values, such as `compare:`; nil for a descriptor made with a
    /// comparator block.
    open var selector: Selector? {
        guard case .selector(let selector) = comparison else { return nil }
        return selector
    }

    /// The block that orders two values in ascending order.
    ///
    /// Apple documents this property only for descriptors made with a comparator block, which it
    /// returns. For the others it returns a block that orders values as the selector does.
    open var comparator: Comparator {
        switch comparison {
        case .comparator(let box):
            return box.comparator
        case .selector(let selector):
            let comparison = SortComparison(selector)
            return { lhs, rhs in comparison?.order(lhs, rhs) ?? .orderedSame }
        }
    }

    /// The Swift key path the descriptor was made from, or nil when it was made from a string key.
    open var keyPath: AnyKeyPath? {
        swiftKeyPath
    }

    /// A copy of the sort descriptor with the opposite order, the same key path and comparison.
    open var reversedSortDescriptor: Any {
        NSSortDescriptor(key: sortKey, ascending: !isAscending, comparison: comparison, keyPath: swiftKeyPath)
    }

    /// Allows a securely decoded sort descriptor to evaluate; sort descriptors are not archived
    /// here, so every descriptor can evaluate and this does nothing.
    open func allowEvaluation() {}

    /// Returns the order of two objects by the descriptor's key path, comparison and direction.
    ///
    /// - Parameters:
    ///   - object1: The first object.
    ///   - object2: The second object.
    /// - Returns: `.orderedAscending` when `object1` comes first, `.orderedDescending` when
    ///   `object2` does, `.orderedSame` when they tie. A value that cannot be read counts as nil;
    ///   values that cannot be ordered against each other tie, and so do all values for a
    ///   selector this implementation does not know.
    open func compare(_ object1: Any, to object2: Any) -> ComparisonResult {
        guard let order = try? valueOrder() else { return .orderedSame }
        let result = order(try? value(of: object1), try? value(of: object2))
        return isAscending ? result : result.reversed
    }

    /// The descriptor as Apple prints it: `(key, ascending, compare:)`.
    open override var description: String {
        "(\(sortKey ?? "(null)"), \(isAscending ? "ascending" : "descending"), \(selector.map(String.init(describing:)) ?? "(null)"))"
    }

    /// Sort descriptors are equal when they have the same key, direction and comparison (the
    /// same selector, or the same comparator block, as a reversed descriptor keeps it), and, when
    /// they have no key, the same Swift key path.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSSortDescriptor else { return false }
        guard sortKey == other.sortKey, isAscending == other.isAscending, sortKey != nil || swiftKeyPath == other.swiftKeyPath else {
            return false
        }
        switch (comparison, other.comparison) {
        case (.selector(let lhs), .selector(let rhs)): return lhs == rhs
        case (.comparator(let lhs), .comparator(let rhs)): return lhs === rhs
        default: return false
        }
    }

    /// A hash value consistent with `isEqual(_:)`.
    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(sortKey)
        hasher.combine(isAscending)
        hasher.combine(selector)
        return hasher.finalize()
    }

    /// Returns the sort descriptor itself: sort descriptors are immutable.
    open func copy(with zone: NSZone? = nil) -> Any {
        self
    }
}
