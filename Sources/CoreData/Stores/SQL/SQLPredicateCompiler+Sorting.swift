// Sorting: each sort descriptor of a fetch becomes one ORDER BY term.
extension SQLPredicateCompiler {
    /// The ORDER BY term of a sort descriptor.
    ///
    /// String attributes are ordered by the collation of the descriptor's comparison method
    /// (`compare:` by SQLite's byte order, as Apple's store does), so that the fetch orders them
    /// exactly as sorting in memory does; SQLite applies a collation to text only, and other
    /// values order alike in SQL and in memory without one. Descriptors
    /// SQL cannot order by (comparator blocks, unsupported selectors, no key) throw.
    /// In a grouped query (`grouped`), a key is read from the group's rows as the dialect reads
    /// a column that is not grouped by (`SQLDialect.groupedSortKey`).
    mutating func orderTerm(_ descriptor: NSSortDescriptor, in scope: SQLScope, grouped: Bool = false) throws -> String {
        guard let components = descriptor.keyPathComponents else {
            throw CoreDataError.invalidRequest("A sort descriptor without a key cannot sort a fetch: \(descriptor)")
        }
        let comparison = try descriptor.selectorComparison()
        let direction = descriptor.ascending ? "ASC\(dialect.nullsFirst)" : "DESC\(dialect.nullsLast)"
        let dialect = dialect
        let key = { (column: String) in grouped ? dialect.groupedSortKey(column, ascending: descriptor.ascending) : column }
        switch try keyPathOperand(components, in: scope) {
        case .attribute(let column, let attribute) where attribute.attributeType == .stringAttributeType:
            // `compare:` is the column's own order: bytes, in SQLite and in the other databases'
            // text columns (`SQLDialect.columnTypes`).
            guard let collation = comparison.collationName else { return "\(key(column)) \(direction)" }
            guard dialect.hasComparisonCollations else {
                throw unsupported("sorting by \(comparison.selector), which only \(SQLDialect.sqlite.storeName) orders in SQL")
            }
            return "\(key(column)) COLLATE \(collation) \(direction)"
        case .attribute(let column, _):
            return "\(key(column)) \(direction)"
        case .toMany(let relationship, let ownerAlias, let remainder) where remainder.first == "@count":
            return "\(try countSubquery(relationship, ownerAlias: ownerAlias).sql) \(direction)"
        case .toMany(let relationship, let ownerAlias, let remainder):
            // `rel.@sum.x` and the like; an ORDER BY term takes no parameters.
            guard let aggregate = try collectionOperatorSubquery(relationship, ownerAlias: ownerAlias, remainder: remainder),
                  aggregate.bindings.isEmpty else {
                throw CoreDataError.invalidRequest("The sort key '\(components.joined(separator: "."))' of \(scope.entity.entityName) is a to-many relationship, which cannot sort a fetch without a collection operator.")
            }
            return "\(aggregate.sql) \(direction)"
        case .scalar:
            throw CoreDataError.invalidRequest("The sort key '\(components.joined(separator: "."))' of \(scope.entity.entityName) is a composite attribute: a fetch sorts by its elements, not by the composite itself.")
        default:
            // Objects have no order of their own; in memory such a key leaves the order unchanged.
            throw CoreDataError.invalidRequest("The sort key '\(components.joined(separator: "."))' of \(scope.entity.entityName) is a relationship, which cannot sort a fetch.")
        }
    }
}
