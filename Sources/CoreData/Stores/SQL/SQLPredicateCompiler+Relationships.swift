/// Comparisons over relationships: to-one keys against objects, and `ANY`, `ALL`, `NONE`,
/// `@count` and membership over a to-many relationship as correlated subqueries.
///
/// An object or object ID stands for its row only when it belongs to this store and to the
/// entity the key refers to; an unsaved object, or one of another store or entity, matches no row.
extension SQLPredicateCompiler {
    // MARK: To-one relationships and SELF

    func compileObjectKey(_ column: String, entity: NSEntityDescription, type: Operator, right: Operand) throws -> SQLFragment {
        switch (type, right) {
        case (.equalTo, .constant(let value)) where ValueUnwrapping.isNull(value):
            return SQLFragment(sql: "\(column) IS NULL")
        case (.notEqualTo, .constant(let value)) where ValueUnwrapping.isNull(value):
            return SQLFragment(sql: "\(column) IS NOT NULL")
        case (.equalTo, .constant(let value)), (.notEqualTo, .constant(let value)):
            guard let key = try primaryKey(of: value, in: entity) else {
                return type == .equalTo ? .alwaysFalse : SQLFragment(sql: "\(column) IS NOT NULL")
            }
            let parameter = SQLFragment.parameter(.integer(key))
            return SQLFragment(sql: "\(column) \(Self.sqlOperator(type)) \(parameter.sql)", bindings: parameter.bindings)
        case (.in, .constant(let values)):
            let keys = try Self.collectionElements(values).compactMap { try primaryKey(of: $0, in: entity) }
            guard !keys.isEmpty else { return .alwaysFalse }
            let list = SQLFragment.parameters(keys.map(SQLValue.integer))
            return SQLFragment(sql: "\(column) IN (\(list.sql))", bindings: list.bindings)
        case (.in, .keys(let keys, let keysEntity)):
            // Primary keys identify rows within the table of an inheritance hierarchy only.
            guard keysEntity.rootEntity === entity.rootEntity else { return .alwaysFalse }
            return SQLFragment(sql: "\(column) IN (\(keys.sql))", bindings: keys.bindings)
        case (.equalTo, .objectKey(let other, _)), (.notEqualTo, .objectKey(let other, _)):
            return SQLFragment(sql: "\(column) \(Self.sqlOperator(type)) \(other)")
        default:
            throw unsupported("\(PredicateFormatPrinter.spelling(of: type)) on a relationship")
        }
    }

    /// The primary key of the row of `entity` (or a sub-entity) in this store that a constant
    /// object or object ID names; nil when it names none. A number is taken as a primary key.
    func primaryKey(of value: Any?, in entity: NSEntityDescription) throws -> Int64? {
        let objectID: NSManagedObjectID
        switch ValueUnwrapping.unwrapped(value) {
        case let object as NSManagedObject: objectID = object.objectID
        case let identifier as NSManagedObjectID: objectID = identifier
        case let number as NSNumber: return number.int64Value
        default:
            throw CoreDataError.invalidRequest("A relationship can only be compared with managed objects or object IDs, not \(value.map { "\($0)" } ?? "nil").")
        }
        guard let key = objectID.primaryKey, objectID.identityNumber == store.identityNumber, objectID.entity.isKindOf(entity: entity) else {
            return nil
        }
        return key
    }

    // MARK: To-many relationships

    mutating func compileQuantified(_ comparison: ComparisonNode, type: Operator, relationship: NSRelationshipDescription, ownerAlias: String, remainder: [String], right: Operand) throws -> SQLFragment {
        if remainder.isEmpty, type == .contains, comparison.modifier == .direct, case .constant(let value) = right {
            return try membership(of: value, in: relationship, ownerAlias: ownerAlias)
        }
        guard comparison.modifier != .direct else {
            throw unsupported("the to-many key '\(relationship.name)' without ANY, ALL or NONE")
        }
        guard case .constant(let value) = right, let destination = relationship.destinationEntity else {
            throw unsupported("a comparison over a to-many relationship with a non-constant value")
        }
        if let nested = Self.toManyRelationship(along: remainder, from: destination) {
            throw unsupported("a key path through two to-many relationships ('\(relationship.name)' and '\(nested.name)')")
        }
        let inner = SQLScope(entity: destination, alias: newAlias())
        let condition = ComparisonNode(
            left: .keyPath(base: nil, components: remainder.isEmpty ? ["self"] : remainder),
            right: .constant(ConstantValue(value)),
            operatorType: type,
            modifier: .direct,
            options: comparison.options
        )
        let compiled = try compileComparison(condition, in: inner)
        let source = try subquerySource(relationship, ownerAlias: ownerAlias, alias: inner.alias)
        let joins = inner.joins.joined(separator: " ")
        switch comparison.modifier {
        case .all:
            // A destination for which the condition is NULL (a NULL value) does not satisfy it.
            return SQLFragment(sql: "NOT EXISTS (SELECT 1 \(source.from) \(joins) WHERE \(source.link) AND NOT COALESCE((\(compiled.sql)), FALSE))", bindings: compiled.bindings)
        default:
            return SQLFragment(sql: "EXISTS (SELECT 1 \(source.from) \(joins) WHERE \(source.link) AND (\(compiled.sql)))", bindings: compiled.bindings)
        }
    }

    /// The first to-many relationship a key path reaches from `entity`, if any.
    private static func toManyRelationship(along components: [String], from entity: NSEntityDescription) -> NSRelationshipDescription? {
        guard let resolved = try? entity.resolve(keyPathComponents: components) else { return nil }
        return resolved.firstToManyIndex.flatMap { resolved.steps[$0].relationship }
    }

    mutating func membership(of value: Any?, in relationship: NSRelationshipDescription, ownerAlias: String) throws -> SQLFragment {
        guard let destination = relationship.destinationEntity else { throw unsupported("a relationship without destination") }
        // As in memory, a collection is not a member of the relationship, even of its elements.
        guard let member = ValueUnwrapping.nonNull(value), CollectionElements.elements(of: member) == nil,
              let key = try primaryKey(of: member, in: destination) else { return .alwaysFalse }
        let alias = newAlias()
        let source = try subquerySource(relationship, ownerAlias: ownerAlias, alias: alias)
        let parameter = SQLFragment.parameter(.integer(key))
        return SQLFragment(
            sql: "EXISTS (SELECT 1 \(source.from) WHERE \(source.link) AND \(alias).Z_PK = \(parameter.sql))",
            bindings: parameter.bindings
        )
    }

    /// `rel.@count` and `rel.@sum.key` (`@avg`, `@min`, `@max`) as correlated subqueries; nil
    /// for a key path that applies no collection operator to the relationship.
    ///
    /// As in memory, nil values are left out, the sum of nothing is 0 and the average, minimum
    /// and maximum of nothing are nil.
    mutating func collectionOperatorSubquery(_ relationship: NSRelationshipDescription, ownerAlias: String, remainder: [String]) throws -> SQLFragment? {
        guard let first = remainder.first, let name = CollectionOperator.name(of: first) else { return nil }
        let aggregate: (String) -> String
        switch CollectionOperator(rawValue: name) {
        case .count?: return try countSubquery(relationship, ownerAlias: ownerAlias)
        case .sum?: aggregate = { "COALESCE(SUM(\($0)), 0)" }
        case .avg?: aggregate = { "AVG(\($0))" }
        case .min?: aggregate = { "MIN(\($0))" }
        case .max?: aggregate = { "MAX(\($0))" }
        default: throw unsupported("the collection operator \(first) on the to-many key '\(relationship.name)'")
        }
        guard remainder.count > 1, let destination = relationship.destinationEntity else {
            throw unsupported("\(first) without a key of '\(relationship.name)' to aggregate")
        }
        let inner = SQLScope(entity: destination, alias: newAlias())
        guard case .attribute(let column, let attribute) = try keyPathOperand(Array(remainder.dropFirst()), in: inner),
              attribute.attributeType.isNumeric || attribute.attributeType == .dateAttributeType else {
            throw unsupported("\(first) of something other than a numeric attribute of '\(relationship.name)'")
        }
        let source = try subquerySource(relationship, ownerAlias: ownerAlias, alias: inner.alias)
        let joins = inner.joins.joined(separator: " ")
        return SQLFragment(sql: "(SELECT \(aggregate(column)) \(source.from) \(joins) WHERE \(source.link))")
    }

    mutating func countSubquery(_ relationship: NSRelationshipDescription, ownerAlias: String) throws -> SQLFragment {
        let source = try subquerySource(relationship, ownerAlias: ownerAlias, alias: newAlias())
        return SQLFragment(sql: "(SELECT COUNT(*) \(source.from) WHERE \(source.link))")
    }

    /// The FROM clause and the correlation condition that list a to-many relationship's
    /// destinations (as `alias`) for the row `ownerAlias`.
    func subquerySource(_ relationship: NSRelationshipDescription, ownerAlias: String, alias: String) throws -> (from: String, link: String) {
        guard let destination = relationship.destinationEntity else { throw unsupported("a relationship without destination") }
        let destinationMapping = try mapping(for: destination)
        let entityFilter = entityCondition(destinationMapping, alias: alias)
        if let joinTable = schema.joinTable(for: relationship) {
            let columns = joinTable.columns(for: relationship)
            let joinAlias = alias + "j"
            return (
                "FROM \(joinTable.name) \(joinAlias) JOIN \(destinationMapping.table) \(alias) ON \(alias).Z_PK = \(joinAlias).\(columns.destination)",
                "\(joinAlias).\(columns.source) = \(ownerAlias).Z_PK" + entityFilter
            )
        }
        guard let inverse = relationship.inverseRelationship,
              let inverseSlot = destination.layout.slotIndex(forKey: inverse.name),
              let foreignKey = destinationMapping.columnBySlot[inverseSlot] else {
            throw unsupported("the to-many relationship '\(relationship.name)'")
        }
        return ("FROM \(destinationMapping.table) \(alias)", "\(alias).\(foreignKey) = \(ownerAlias).Z_PK" + entityFilter)
    }

    /// ` AND alias.Z_ENT IN (…)` when the table holds entities other than `mapping`'s hierarchy.
    func entityCondition(_ mapping: SQLSchema.EntityMapping, alias: String) -> String {
        let hierarchySize = mapping.entity.rootEntity.selfAndDescendants.filter { schema.mapping(for: $0) != nil }.count
        guard mapping.numbersWithDescendants.count < hierarchySize else { return "" }
        return " AND \(alias).Z_ENT IN (\(mapping.numbersWithDescendants.map(String.init).joined(separator: ", ")))"
    }
}
