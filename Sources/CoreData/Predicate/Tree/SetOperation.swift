/// The set operations of expressions: `UNION`, `INTERSECT` and `MINUS` (spec §4.6).
enum SetOperation: Hashable, Sendable {
    case union
    case intersect
    case minus

    /// The reserved word that writes the operation.
    var keyword: String {
        switch self {
        case .union: "UNION"
        case .intersect: "INTERSECT"
        case .minus: "MINUS"
        }
    }
}
