extension ComparisonResult {
    /// The result of comparing two `Comparable` values; unordered values (NaN) compare the same.
    init<Value: Comparable>(ordering lhs: Value, _ rhs: Value) {
        if lhs < rhs {
            self = .orderedAscending
        } else if lhs > rhs {
            self = .orderedDescending
        } else {
            self = .orderedSame
        }
    }

    /// The opposite order; `.orderedSame` stays the same.
    var reversed: ComparisonResult {
        switch self {
        case .orderedAscending: .orderedDescending
        case .orderedDescending: .orderedAscending
        case .orderedSame: .orderedSame
        }
    }
}
