/// Compiles the predicate tree (`PredicateNode`) and sort descriptors into SQL over Apple's
/// layout, with every constant bound as a parameter.
///
/// Key paths through to-one relationships become left outer joins; comparisons over to-many
/// relationships (`ANY`, `ALL`, `NONE`, `@count`, membership) become correlated subqueries; string
/// options, `LIKE` and `MATCHES` call the functions of `SQLiteFunctions`, which share the
/// in-memory evaluator's semantics. Anything the store cannot express in SQL is reported as an
/// error naming the predicate, never evaluated wrongly.
struct SQLitePredicateCompiler {
    let schema: SQLiteSchema
    private var aliasCount = 0

    init(schema: SQLiteSchema) {
        self.schema = schema
    }

    /// A fresh table alias (`t1`, `t2`, …; `t0` is the fetched table).
    mutating func newAlias() -> String {
        aliasCount += 1
        return "t\(aliasCount)"
    }

    // MARK: Predicates

    mutating func compile(_ node: PredicateNode, in scope: SQLScope) throws -> SQLFragment {
        switch node {
        case .constant(let value):
            return value ? .alwaysTrue : .alwaysFalse
        case .compound(let type, let subpredicates):
            return try compileCompound(type, subpredicates, in: scope)
        case .comparison(let comparison):
            return try compileComparison(comparison, in: scope)
        }
    }

    private mutating func compileCompound(_ type: NSCompoundPredicate.LogicalType, _ subpredicates: [PredicateNode], in scope: SQLScope) throws -> SQLFragment {
        let parts = try subpredicates.map { try compile($0, in: scope) }
        switch type {
        case .not:
            guard let operand = parts.first else { return .alwaysTrue }
            return SQLFragment(sql: "NOT (\(operand.sql))", bindings: operand.bindings)
        case .and:
            guard !parts.isEmpty else { return .alwaysTrue }
            let joined = SQLFragment.joined(parts.map { SQLFragment(sql: "(\($0.sql))", bindings: $0.bindings) }, separator: " AND ")
            return joined
        case .or:
            guard !parts.isEmpty else { return .alwaysFalse }
            return SQLFragment.joined(parts.map { SQLFragment(sql: "(\($0.sql))", bindings: $0.bindings) }, separator: " OR ")
        @unknown default:
            throw unsupported("an unknown compound predicate type")
        }
    }

    // MARK: Operands

    /// What one side of a comparison stands for in SQL.
    private enum Operand {
        /// A column holding an attribute's values.
        case attribute(String, NSAttributeDescription)
        /// A column holding primary keys of an entity: a to-one foreign key, or `Z_PK` for SELF.
        case objectKey(String, NSEntityDescription)
        /// A to-many relationship reached from a table alias, and the key path beyond it.
        case toMany(NSRelationshipDescription, ownerAlias: String, remainder: [String])
        /// A scalar SQL expression such as a `@count` subquery.
        case scalar(SQLFragment)
        /// A constant value.
        case constant(Any?)
    }

    private mutating func operand(_ expression: ExpressionNode, in scope: SQLScope) throws -> Operand {
        if let components = expression.rootedKeyPath {
            return try keyPathOperand(components, in: scope)
        }
        switch expression {
        case .constant(let constant):
            return .constant(constant.value)
        case .evaluatedObject:
            return .objectKey("\(scope.alias).Z_PK", scope.entity)
        case .aggregate(let elements):
            return .constant(try elements.map { element -> Any in
                guard case .constant(let constant) = element else { throw unsupported("an aggregate of non-constant values") }
                return constant.value ?? NSNull()
            })
        case .variable(let name):
            throw CoreDataError.invalidRequest("The predicate variable $\(name) has no value; substitute it before fetching.")
        case .keyPath:
            throw unsupported("a key path on a computed value")
        }
    }

    private mutating func keyPathOperand(_ components: [String], in scope: SQLScope) throws -> Operand {
        var entity = scope.entity
        var alias = scope.alias
        var path = ""
        var remaining = components[...]
        while let component = remaining.popFirst() {
            if component.lowercased() == "self" { continue }
            guard let slot = entity.layout.slotIndex(forKey: component) else {
                throw CoreDataError.unknownKey(components.joined(separator: "."), entity: scope.entity.entityName)
            }
            let info = entity.layout.slots[slot]
            guard !info.isTransient else {
                throw CoreDataError.invalidRequest("The transient property '\(component)' of \(entity.entityName) cannot be used in a fetch from a SQLite store.")
            }
            let mapping = try self.mapping(for: entity)
            switch info.kind {
            case .attribute(let attribute):
                guard remaining.isEmpty, let column = mapping.columnBySlot[slot] else {
                    throw CoreDataError.unknownKey(components.joined(separator: "."), entity: scope.entity.entityName)
                }
                return .attribute("\(alias).\(column)", attribute)
            case .toOne(let relationship):
                guard let column = mapping.columnBySlot[slot], let destination = relationship.destinationEntity else {
                    throw CoreDataError.unknownKey(components.joined(separator: "."), entity: scope.entity.entityName)
                }
                if remaining.isEmpty { return .objectKey("\(alias).\(column)", destination) }
                path += (path.isEmpty ? "" : ".") + component
                let destinationTable = try self.mapping(for: destination).table
                let parentAlias = alias
                let newAlias = self.newAlias()
                let joined = scope.join(path: path) {
                    ("LEFT OUTER JOIN \(destinationTable) \(newAlias) ON \(newAlias).Z_PK = \(parentAlias).\(column)", newAlias, destination)
                }
                alias = joined.alias
                entity = joined.entity
            case .toMany(let relationship):
                return .toMany(relationship, ownerAlias: alias, remainder: Array(remaining))
            }
        }
        return .objectKey("\(alias).Z_PK", entity)
    }

    // MARK: Comparisons

    private mutating func compileComparison(_ comparison: ComparisonNode, in scope: SQLScope) throws -> SQLFragment {
        var left = try operand(comparison.left, in: scope)
        var right = try operand(comparison.right, in: scope)
        var type = comparison.operatorType
        if case .constant = left, !isConstant(right) {
            guard let flipped = Self.flipped(type) else {
                return try compileConstantOnLeft(comparison, left: left, right: right, in: scope)
            }
            swap(&left, &right)
            type = flipped
        }
        if case .toMany(let relationship, let ownerAlias, let remainder) = left {
            return try compileQuantified(comparison, type: type, relationship: relationship, ownerAlias: ownerAlias, remainder: remainder, right: right)
        }
        guard comparison.modifier == .direct else {
            throw unsupported("ANY or ALL on a key path that is not a to-many relationship")
        }
        switch left {
        case .attribute(let column, let attribute):
            return try compileAttribute(column, attribute: attribute, type: type, options: comparison.options, right: right)
        case .objectKey(let column, let entity):
            return try compileObjectKey(column, entity: entity, type: type, right: right)
        case .scalar(let fragment):
            return try compileScalar(fragment, type: type, right: right)
        case .constant(let value):
            return try compileConstants(value, type: type, right: right)
        case .toMany:
            throw unsupported("a to-many key path here")
        }
    }

    /// `constant IN keyPath` and `constant CONTAINS keyPath`, which cannot simply be flipped.
    private mutating func compileConstantOnLeft(_ comparison: ComparisonNode, left: Operand, right: Operand, in scope: SQLScope) throws -> SQLFragment {
        guard case .constant(let value) = left else { throw unsupported("this comparison") }
        switch (comparison.operatorType, right) {
        case (.in, .toMany(let relationship, let ownerAlias, let remainder)) where remainder.isEmpty:
            return try membership(of: value, in: relationship, ownerAlias: ownerAlias)
        case (.in, .attribute(let column, _)):
            guard let string = value as? String else { throw unsupported("IN with a non-string on the left of a string attribute") }
            return search(SQLFragment(sql: "?", bindings: [.text(string)]), needle: SQLFragment(sql: column), options: comparison.options, mode: .contains)
        case (.contains, .attribute(let column, _)):
            guard let string = value as? String else { throw unsupported("CONTAINS with a non-string constant") }
            return search(SQLFragment(sql: "?", bindings: [.text(string)]), needle: SQLFragment(sql: column), options: comparison.options, mode: .contains)
        default:
            throw unsupported("this comparison with a constant on the left")
        }
    }

    private mutating func compileAttribute(_ column: String, attribute: NSAttributeDescription, type: NSComparisonPredicate.Operator, options: NSComparisonPredicate.Options, right: Operand) throws -> SQLFragment {
        let stringOptions = options.subtracting(.normalized)
        let isString = attribute.attributeType == .stringAttributeType
        let other: SQLFragment
        switch right {
        case .constant(let value):
            switch type {
            case .in: return try inList(column, values: value, attribute: attribute, options: isString ? stringOptions : [])
            case .between: return try between(column, bounds: value, attribute: attribute)
            case .equalTo where ValueUnwrapping.isNull(value): return SQLFragment(sql: "\(column) IS NULL")
            case .notEqualTo where ValueUnwrapping.isNull(value): return SQLFragment(sql: "\(column) IS NOT NULL")
            default:
                if ValueUnwrapping.isNull(value), [.lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo].contains(type) {
                    throw CoreDataError.invalidRequest("Illegal comparison with NULL in a fetch from a SQLite store.")
                }
                other = SQLFragment(sql: "?", bindings: [try bindValue(value, attribute: attribute)])
            }
        case .attribute(let otherColumn, _):
            other = SQLFragment(sql: otherColumn)
        case .scalar(let fragment):
            other = fragment
        case .objectKey, .toMany:
            throw unsupported("comparing an attribute with a relationship")
        }
        let subject = SQLFragment(sql: column)
        switch type {
        case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            if isString && !stringOptions.isEmpty {
                let compared = SQLFragment(sql: "cd_compare(\(column), \(other.sql), \(stringOptions.rawValue))", bindings: other.bindings)
                return SQLFragment(sql: "\(compared.sql) \(Self.sqlOperator(type)) 0", bindings: compared.bindings)
            }
            return SQLFragment(sql: "\(column) \(Self.sqlOperator(type)) \(other.sql)", bindings: other.bindings)
        case .beginsWith:
            if stringOptions.isEmpty, case .constant(let value) = right, let prefix = value as? String {
                guard !prefix.isEmpty else { return .alwaysFalse }
                return SQLFragment(sql: "(\(column) >= ? AND \(column) < ?)", bindings: [.text(prefix), .text(prefix + "\u{10FFFF}")])
            }
            return search(subject, needle: other, options: stringOptions, mode: .beginsWith)
        case .endsWith:
            return search(subject, needle: other, options: stringOptions, mode: .endsWith)
        case .contains:
            return search(subject, needle: other, options: stringOptions, mode: .contains)
        case .like:
            return SQLFragment(sql: "cd_like(\(column), \(other.sql), \(stringOptions.rawValue))", bindings: other.bindings)
        case .matches:
            return SQLFragment(sql: "cd_matches(\(column), \(other.sql), \(stringOptions.rawValue))", bindings: other.bindings)
        case .in, .between, .customSelector:
            throw unsupported("\(type) between two key paths")
        @unknown default:
            throw unsupported("an unknown operator")
        }
    }

    private func search(_ subject: SQLFragment, needle: SQLFragment, options: NSComparisonPredicate.Options, mode: SQLiteFunctions.SearchMode) -> SQLFragment {
        SQLFragment(
            sql: "cd_search(\(subject.sql), \(needle.sql), \(options.rawValue), \(mode.rawValue))",
            bindings: subject.bindings + needle.bindings
        )
    }

    private func inList(_ column: String, values: Any?, attribute: NSAttributeDescription, options: NSComparisonPredicate.Options) throws -> SQLFragment {
        if let string = values as? String {
            return search(SQLFragment(sql: "?", bindings: [.text(string)]), needle: SQLFragment(sql: column), options: options, mode: .contains)
        }
        let elements = try collectionElements(values)
        guard !elements.isEmpty else { return .alwaysFalse }
        let bindings = try elements.map { try bindValue($0, attribute: attribute) }
        if !options.isEmpty {
            return SQLFragment.joined(bindings.map { SQLFragment(sql: "cd_compare(\(column), ?, \(options.rawValue)) = 0", bindings: [$0]) }, separator: " OR ")
        }
        return SQLFragment(sql: "\(column) IN (\(Array(repeating: "?", count: bindings.count).joined(separator: ", ")))", bindings: bindings)
    }

    private func between(_ column: String, bounds: Any?, attribute: NSAttributeDescription) throws -> SQLFragment {
        let elements = try collectionElements(bounds)
        guard elements.count == 2 else {
            throw CoreDataError.invalidRequest("BETWEEN needs a collection of two bounds.")
        }
        return SQLFragment(sql: "\(column) BETWEEN ? AND ?", bindings: [try bindValue(elements[0], attribute: attribute), try bindValue(elements[1], attribute: attribute)])
    }

    private func compileObjectKey(_ column: String, entity: NSEntityDescription, type: NSComparisonPredicate.Operator, right: Operand) throws -> SQLFragment {
        switch (type, right) {
        case (.equalTo, .constant(let value)) where ValueUnwrapping.isNull(value):
            return SQLFragment(sql: "\(column) IS NULL")
        case (.notEqualTo, .constant(let value)) where ValueUnwrapping.isNull(value):
            return SQLFragment(sql: "\(column) IS NOT NULL")
        case (.equalTo, .constant(let value)), (.notEqualTo, .constant(let value)):
            let key = try primaryKey(of: value)
            return SQLFragment(sql: "\(column) \(Self.sqlOperator(type)) ?", bindings: [.integer(key)])
        case (.in, .constant(let values)):
            let keys = try collectionElements(values).map(primaryKey(of:))
            guard !keys.isEmpty else { return .alwaysFalse }
            return SQLFragment(sql: "\(column) IN (\(Array(repeating: "?", count: keys.count).joined(separator: ", ")))", bindings: keys.map(SQLValue.integer))
        case (.equalTo, .objectKey(let other, _)), (.notEqualTo, .objectKey(let other, _)):
            return SQLFragment(sql: "\(column) \(Self.sqlOperator(type)) \(other)")
        default:
            throw unsupported("\(type) on a relationship")
        }
    }

    private func compileScalar(_ fragment: SQLFragment, type: NSComparisonPredicate.Operator, right: Operand) throws -> SQLFragment {
        switch (type, right) {
        case (.between, .constant(let bounds)):
            let elements = try collectionElements(bounds)
            guard elements.count == 2 else { throw CoreDataError.invalidRequest("BETWEEN needs a collection of two bounds.") }
            return SQLFragment(sql: "\(fragment.sql) BETWEEN ? AND ?", bindings: fragment.bindings + [try bindValue(elements[0], attribute: nil), try bindValue(elements[1], attribute: nil)])
        case (.equalTo, .constant(let value)), (.notEqualTo, .constant(let value)), (.lessThan, .constant(let value)),
             (.lessThanOrEqualTo, .constant(let value)), (.greaterThan, .constant(let value)), (.greaterThanOrEqualTo, .constant(let value)):
            return SQLFragment(sql: "\(fragment.sql) \(Self.sqlOperator(type)) ?", bindings: fragment.bindings + [try bindValue(value, attribute: nil)])
        default:
            throw unsupported("\(type) on a computed value")
        }
    }

    /// A comparison of two constants, decided now.
    private func compileConstants(_ value: Any?, type: NSComparisonPredicate.Operator, right: Operand) throws -> SQLFragment {
        guard case .constant(let other) = right else { throw unsupported("this comparison") }
        let node = ComparisonNode(left: .constant(ConstantValue(value)), right: .constant(ConstantValue(other)), operatorType: type, modifier: .direct, options: [])
        return try PredicateEvaluator(variables: [:]).evaluate(.comparison(node), with: nil) ? .alwaysTrue : .alwaysFalse
    }

    // MARK: To-many relationships

    private mutating func compileQuantified(_ comparison: ComparisonNode, type: NSComparisonPredicate.Operator, relationship: NSRelationshipDescription, ownerAlias: String, remainder: [String], right: Operand) throws -> SQLFragment {
        if remainder.first == "@count" {
            let count = try countSubquery(relationship, ownerAlias: ownerAlias)
            return try compileScalar(count, type: type, right: right)
        }
        if remainder.isEmpty, type == .contains, comparison.modifier == .direct, case .constant(let value) = right {
            return try membership(of: value, in: relationship, ownerAlias: ownerAlias)
        }
        guard case .constant(let value) = right, let destination = relationship.destinationEntity else {
            throw unsupported("a comparison over a to-many relationship with a non-constant value")
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
            return SQLFragment(sql: "NOT EXISTS (SELECT 1 \(source.from) \(joins) WHERE \(source.link) AND NOT (\(compiled.sql)))", bindings: compiled.bindings)
        default:
            return SQLFragment(sql: "EXISTS (SELECT 1 \(source.from) \(joins) WHERE \(source.link) AND (\(compiled.sql)))", bindings: compiled.bindings)
        }
    }

    private mutating func membership(of value: Any?, in relationship: NSRelationshipDescription, ownerAlias: String) throws -> SQLFragment {
        let alias = newAlias()
        let source = try subquerySource(relationship, ownerAlias: ownerAlias, alias: alias)
        let keys = try collectionElementsOrSingle(value).map(primaryKey(of:))
        guard !keys.isEmpty else { return .alwaysFalse }
        return SQLFragment(
            sql: "EXISTS (SELECT 1 \(source.from) WHERE \(source.link) AND \(alias).Z_PK IN (\(Array(repeating: "?", count: keys.count).joined(separator: ", "))))",
            bindings: keys.map(SQLValue.integer)
        )
    }

    private mutating func countSubquery(_ relationship: NSRelationshipDescription, ownerAlias: String) throws -> SQLFragment {
        let source = try subquerySource(relationship, ownerAlias: ownerAlias, alias: newAlias())
        return SQLFragment(sql: "(SELECT COUNT(*) \(source.from) WHERE \(source.link))")
    }

    /// The FROM clause and the correlation condition that list a to-many relationship's
    /// destinations (as `alias`) for the row `ownerAlias`.
    private func subquerySource(_ relationship: NSRelationshipDescription, ownerAlias: String, alias: String) throws -> (from: String, link: String) {
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
    func entityCondition(_ mapping: SQLiteSchema.EntityMapping, alias: String) -> String {
        let hierarchySize = mapping.entity.rootEntity.selfAndDescendants.filter { schema.mapping(for: $0) != nil }.count
        guard mapping.numbersWithDescendants.count < hierarchySize else { return "" }
        return " AND \(alias).Z_ENT IN (\(mapping.numbersWithDescendants.map(String.init).joined(separator: ", ")))"
    }

    // MARK: Sorting

    /// The ORDER BY term of a sort descriptor.
    mutating func orderTerm(_ descriptor: NSSortDescriptor, in scope: SQLScope) throws -> String {
        guard let key = descriptor.key else { throw CoreDataError.invalidRequest("A sort descriptor without a key cannot sort a fetch.") }
        let direction = descriptor.ascending ? "ASC" : "DESC"
        switch try keyPathOperand(key.split(separator: ".").map(String.init), in: scope) {
        case .attribute(let column, _), .objectKey(let column, _):
            return "\(column) \(direction)"
        case .toMany(let relationship, let ownerAlias, let remainder) where remainder.first == "@count":
            return "\(try countSubquery(relationship, ownerAlias: ownerAlias).sql) \(direction)"
        default:
            throw CoreDataError.invalidRequest("The sort key '\(key)' of \(scope.entity.entityName) is a to-many relationship, which cannot sort a fetch.")
        }
    }

    // MARK: Values

    private func isConstant(_ operand: Operand) -> Bool {
        if case .constant = operand { return true }
        return false
    }

    private func mapping(for entity: NSEntityDescription) throws -> SQLiteSchema.EntityMapping {
        guard let mapping = schema.mapping(for: entity) else {
            throw CoreDataError.invalidRequest("The entity \(entity.entityName) is not stored in this SQLite store.")
        }
        return mapping
    }

    /// The parameter value of a constant compared with an attribute's column.
    private func bindValue(_ value: Any?, attribute: NSAttributeDescription?) throws -> SQLValue {
        let value = ValueUnwrapping.unwrapped(value)
        guard let value, !(value is NSNull) else { return .null }
        if let attribute {
            let normalized = AttributeValue.normalized(value, type: attribute.attributeType)
            if normalized.isValid { return try SQLiteValueCodec.encode(normalized.value, for: attribute) }
        }
        switch value {
        case let bool as Bool: return .integer(bool ? 1 : 0)
        case let number as NSNumber:
            return number.isFloatingPointNumber ? .real(number.doubleValue) : .integer(number.int64Value)
        case let string as String: return .text(string)
        case let date as Date: return .real(date.timeIntervalSinceReferenceDate)
        case let data as Data: return .blob(data)
        case let uuid as UUID: return .blob(withUnsafeBytes(of: uuid.uuid) { Data($0) })
        case let url as URL: return .text(url.absoluteString)
        case is NSManagedObject, is NSManagedObjectID: return .integer(try primaryKey(of: value))
        default:
            throw CoreDataError.invalidRequest("The value \(value) cannot be compared in a fetch from a SQLite store.")
        }
    }

    /// The primary key a constant object or object ID stands for; unsaved objects match nothing.
    private func primaryKey(of value: Any?) throws -> Int64 {
        switch ValueUnwrapping.unwrapped(value) {
        case let object as NSManagedObject: return object.objectID.primaryKey ?? -1
        case let identifier as NSManagedObjectID: return identifier.primaryKey ?? -1
        case let number as NSNumber: return number.int64Value
        default: throw CoreDataError.invalidRequest("A relationship can only be compared with managed objects or object IDs, not \(value.map { "\($0)" } ?? "nil").")
        }
    }

    private func collectionElements(_ value: Any?) throws -> [Any] {
        switch ValueUnwrapping.unwrapped(value) {
        case let array as [Any]: return array
        case let set as NSSet: return set.allObjects
        case let set as NSOrderedSet: return set.array
        case let array as NSArray: return array.map { $0 }
        case let set as Set<AnyHashable>: return Array(set)
        default: throw CoreDataError.invalidRequest("IN and BETWEEN need a collection on their right side.")
        }
    }

    private func collectionElementsOrSingle(_ value: Any?) throws -> [Any] {
        (try? collectionElements(value)) ?? [value as Any]
    }

    private static func sqlOperator(_ type: NSComparisonPredicate.Operator) -> String {
        switch type {
        case .equalTo: return "="
        case .notEqualTo: return "<>"
        case .lessThan: return "<"
        case .lessThanOrEqualTo: return "<="
        case .greaterThan: return ">"
        default: return ">="
        }
    }

    /// The operator that keeps the meaning when the operands swap sides, for the operators that have one.
    private static func flipped(_ type: NSComparisonPredicate.Operator) -> NSComparisonPredicate.Operator? {
        switch type {
        case .equalTo, .notEqualTo: return type
        case .lessThan: return .greaterThan
        case .lessThanOrEqualTo: return .greaterThanOrEqualTo
        case .greaterThan: return .lessThan
        case .greaterThanOrEqualTo: return .lessThanOrEqualTo
        default: return nil
        }
    }

    private func unsupported(_ what: String) -> NSError {
        CoreDataError.invalidRequest("The SQLite store cannot evaluate \(what) in a fetch.")
    }
}
