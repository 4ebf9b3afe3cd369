extension NSPredicate {
    /// A predicate object for `node`, of the class Apple would use for it: an
    /// `NSComparisonPredicate` for a comparison, an `NSCompoundPredicate` for `NOT`/`AND`/`OR`, and a
    /// plain `NSPredicate` for `TRUEPREDICATE` and `FALSEPREDICATE`.
    ///
    /// `NSPredicate(format:)` cannot return a subclass in Swift, so the subclasses are views over the
    /// same tree; code that needs one (`subpredicates`, substitution) makes it here.
    static func make(node: PredicateNode, parseError: NSError? = nil) -> NSPredicate {
        switch node {
        case .constant, .block:
            NSPredicate(node: node, parseError: parseError)
        case .comparison(let comparison):
            NSComparisonPredicate(comparison: comparison, parseError: parseError)
        case .compound(let type, let subpredicates):
            NSCompoundPredicate(type: type, subnodes: subpredicates, parseError: parseError)
        }
    }
}
