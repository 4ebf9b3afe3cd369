// Sorting: each sort descriptor of a fetch becomes one ORDER BY term.
extension SQLitePredicateCompiler {
    /// The ORDER BY term of a sort descriptor.
    mutating func orderTerm(_ descriptor: NSSortDescriptor, in scope: SQLScope) throws -> String {
        guard let key = descriptor.key else { throw CoreDataError.invalidRequest("A sort descriptor without a key cannot sort a fetch.") }
        let direction = descriptor.ascending ? "ASC" : "DESC"
        switch try keyPathOperand(key.split(separator: ".").map(String.init), in: scope) {
        case .attribute(let column, _):
            return "\(column) \(direction)"
        case .toMany(let relationship, let ownerAlias, let remainder) where remainder.first == "@count":
            return "\(try countSubquery(relationship, ownerAlias: ownerAlias).sql) \(direction)"
        default:
            // Objects have no order of their own; in memory such a key leaves the order unchanged.
            throw CoreDataError.invalidRequest("The sort key '\(key)' of \(scope.entity.entityName) is a relationship, which cannot sort a fetch.")
        }
    }
}
