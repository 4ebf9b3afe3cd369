/// A specialized predicate that evaluates logical combinations of other predicates.
///
/// An `AND` predicate with no subpredicates is true; an `OR` predicate with none is false.
open class NSCompoundPredicate: NSPredicate {
    private let logicalType: NSCompoundPredicate.LogicalType
    private let subnodes: [PredicateNode]

    /// Creates a predicate that combines subpredicates with a logical operator.
    ///
    /// - Parameters:
    ///   - type: `.and`, `.or`, or `.not` (with a single subpredicate).
    ///   - subpredicates: The predicates to combine.
    public init(type: NSCompoundPredicate.LogicalType, subpredicates: [NSPredicate]) {
        logicalType = type
        subnodes = subpredicates.map(\.node)
        super.init(
            node: .compound(type, subnodes),
            nestingDepth: 1 + (subpredicates.lazy.map(\.nestingDepth).max() ?? 0),
            parseError: subpredicates.lazy.compactMap(\.parseError).first
        )
    }

    /// The view over a compound node of an existing tree.
    init(type: NSCompoundPredicate.LogicalType, subnodes: [PredicateNode], parseError: NSError?) {
        logicalType = type
        self.subnodes = subnodes
        super.init(node: .compound(type, subnodes), parseError: parseError)
    }

    /// Creates a predicate that is true when all of the subpredicates are.
    ///
    /// - Parameter subpredicates: The predicates to combine.
    public convenience init(andPredicateWithSubpredicates subpredicates: [NSPredicate]) {
        self.init(type: .and, subpredicates: subpredicates)
    }

    /// Creates a predicate that is true when any of the subpredicates is.
    ///
    /// - Parameter subpredicates: The predicates to combine.
    public convenience init(orPredicateWithSubpredicates subpredicates: [NSPredicate]) {
        self.init(type: .or, subpredicates: subpredicates)
    }

    /// Creates a predicate that is true when the given predicate is false.
    ///
    /// - Parameter predicate: The predicate to negate.
    public convenience init(notPredicateWithSubpredicate predicate: NSPredicate) {
        self.init(type: .not, subpredicates: [predicate])
    }

    /// The logical operator: `.not`, `.and` or `.or`.
    open var compoundPredicateType: NSCompoundPredicate.LogicalType {
        logicalType
    }

    /// The subpredicates, as `NSPredicate` objects (comparison and compound subpredicates are
    /// `NSComparisonPredicate` and `NSCompoundPredicate` instances).
    open var subpredicates: [Any] {
        subnodes.map { NSPredicate.make(node: $0, parseError: nil) }
    }
}
