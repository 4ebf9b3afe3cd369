/// The (source, destination) primary-key pairs of a source relationship, as SQL: from its join
/// table, or from the foreign key of a to-one relationship or of a to-many's to-one inverse.
/// Positions come from ordering columns where the source has them, otherwise from the keys.
struct RelationshipPairs {
    let joinTable: SQLSchema.JoinTable?
    /// The table the pairs are read from.
    let table: String
    /// A column that must not be NULL for a row to be a pair (the foreign key), if any.
    let requiredColumn: String?
    let source: String
    let destination: String
    let sourcePosition: String
    let destinationPosition: String

    init?(of relationship: NSRelationshipDescription, in schema: SQLSchema) {
        joinTable = schema.joinTable(for: relationship)
        if let joinTable {
            let (sourceColumn, destinationColumn) = joinTable.columns(for: relationship)
            (table, requiredColumn, source, destination) = (joinTable.name, nil, sourceColumn, destinationColumn)
            sourcePosition = joinTable.orderColumns[sourceColumn] ?? sourceColumn
            destinationPosition = joinTable.orderColumns[destinationColumn] ?? destinationColumn
        } else if !relationship.isToMany, let (table, column) = Self.foreignKey(of: relationship, in: schema) {
            (self.table, requiredColumn, source, destination) = (table, column, "Z_PK", column)
            (sourcePosition, destinationPosition) = ("Z_PK", "Z_PK")
        } else if let inverse = relationship.inverseRelationship, !inverse.isToMany, let (table, column) = Self.foreignKey(of: inverse, in: schema) {
            (self.table, requiredColumn, source, destination) = (table, column, column, "Z_PK")
            (sourcePosition, destinationPosition) = ("Z_PK", schema.orderColumn(for: relationship) ?? "Z_PK")
        } else {
            return nil
        }
    }

    private init(reversing pairs: RelationshipPairs) {
        joinTable = pairs.joinTable
        (table, requiredColumn) = (pairs.table, pairs.requiredColumn)
        (source, destination) = (pairs.destination, pairs.source)
        (sourcePosition, destinationPosition) = (pairs.destinationPosition, pairs.sourcePosition)
    }

    /// The same pairs seen from the inverse relationship.
    var reversed: RelationshipPairs {
        RelationshipPairs(reversing: self)
    }

    /// `FROM` the pairs' table, with the foreign-key condition.
    var fromClause: String {
        table + (requiredColumn.map { " WHERE \($0) IS NOT NULL" } ?? "")
    }

    /// A subquery for the source key paired with the destination key `outerKey` (a column of
    /// the enclosing query, qualified by its table).
    func sourceKey(pairedWith outerKey: String) -> String {
        let condition = requiredColumn.map { " AND p.\($0) IS NOT NULL" } ?? ""
        return "(SELECT p.\(source) FROM \(table) p WHERE p.\(destination) = \(outerKey)\(condition) LIMIT 1)"
    }

    private static func foreignKey(of relationship: NSRelationshipDescription, in schema: SQLSchema) -> (table: String, column: String)? {
        let entity = relationship.entity
        guard let mapping = schema.mapping(for: entity), let slot = entity.layout.slotIndex(forKey: relationship.name),
              let column = mapping.columnBySlot[slot] else { return nil }
        return (mapping.table, column)
    }
}
