/// Compiles the predicate tree (`PredicateNode`) and sort descriptors into SQL over Apple's
/// layout, with every constant bound as a parameter.
///
/// Key paths through to-one relationships become left outer joins; comparisons over to-many
/// relationships (`ANY`, `ALL`, `NONE`, `@count`, membership) become correlated subqueries; string
/// options, `LIKE` and `MATCHES` call the functions of `SQLFunctions`, which each store defines
/// with the in-memory evaluator's semantics. Anything the store cannot express in SQL is
/// reported as an error naming the predicate, never evaluated wrongly. One compiler serves every
/// relational store; what their databases spell differently comes from the `SQLDialect`.
struct SQLPredicateCompiler {
    let schema: SQLSchema
    /// The store being queried: objects of other stores match no row of it.
    let store: NSPersistentStore
    let dialect: SQLDialect
    private var aliasCount = 0

    init(schema: SQLSchema, store: NSPersistentStore, dialect: SQLDialect) {
        self.schema = schema
        self.store = store
        self.dialect = dialect
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
        case .block:
            throw unsupported("a block predicate (block predicates work with in-memory stores only)")
        }
    }

    private mutating func compileCompound(_ type: NSCompoundPredicate.LogicalType, _ subpredicates: [PredicateNode], in scope: SQLScope) throws -> SQLFragment {
        switch type {
        case .not:
            // NOT negates the conjunction of its operands; NOT NOT p is p, in SQL's logic too.
            var operands = subpredicates
            var negations = 1
            while operands.count == 1, case .compound(.not, let nested) = operands[0] {
                operands = nested
                negations += 1
            }
            let conjunction = try compileCompound(.and, operands, in: scope)
            guard !negations.isMultiple(of: 2) else { return conjunction }
            return SQLFragment(sql: "NOT (\(conjunction.sql))", bindings: conjunction.bindings)
        case .and:
            let parts = try Self.chainedOperands(of: .and, subpredicates).map { try compile($0, in: scope) }
            return parts.isEmpty ? .alwaysTrue : grouped(parts, separator: " AND ")
        case .or:
            let parts = try Self.mergingEqualities(Self.chainedOperands(of: .or, subpredicates)).map { try compile($0, in: scope) }
            return parts.isEmpty ? .alwaysFalse : grouped(parts, separator: " OR ")
        @unknown default:
            throw unsupported("an unknown compound predicate type")
        }
    }

    /// The operands of nested compounds of one type, in order: `(a AND b) AND c` gives a, b, c.
    /// Predicates built by adding one subpredicate at a time nest deeply, and SQLite's parser
    /// refuses about a hundred nested parentheses.
    private static func chainedOperands(of type: NSCompoundPredicate.LogicalType, _ subpredicates: [PredicateNode]) -> [PredicateNode] {
        var operands: [PredicateNode] = []
        var pending = Array(subpredicates.reversed())
        while let next = pending.popLast() {
            if case .compound(type, let nested) = next, !nested.isEmpty {
                pending.append(contentsOf: nested.reversed())
            } else {
                operands.append(next)
            }
        }
        return operands
    }

    /// The operands of an `OR` with the comparisons of one key path with constants merged:
    /// `a == 1 OR b == 2 OR a == 3` gives `a IN {1, 3}` and `b == 2`. SQLite serves `IN` from an
    /// index, which it cannot do for an `OR` whose terms it does not all weigh (see `grouped`).
    /// The comparisons mean the same merged: a value of another kind than the attribute's matches
    /// no row either way, and a nil or a collection constant is left alone.
    private static func mergingEqualities(_ operands: [PredicateNode]) -> [PredicateNode] {
        var constantsByKeyPath: [[String]: (left: ExpressionNode, constants: [Any])] = [:]
        var keyPaths: [[String]] = []
        var others: [PredicateNode] = []
        for operand in operands {
            guard case .comparison(let comparison) = operand, comparison.operatorType == .equalTo, comparison.modifier == .direct,
                  comparison.options.isEmpty, comparison.customSelector == nil,
                  let keyPath = comparison.left.rootedKeyPath, !keyPath.contains(where: { $0.hasPrefix("@") }),
                  case .constant(let constant) = comparison.right, let value = ValueUnwrapping.nonNull(constant.value),
                  CollectionElements.elements(of: value) == nil else {
                others.append(operand)
                continue
            }
            if constantsByKeyPath[keyPath] == nil { keyPaths.append(keyPath) }
            constantsByKeyPath[keyPath, default: (comparison.left, [])].constants.append(value)
        }
        let merged = keyPaths.compactMap { constantsByKeyPath[$0] }.map { left, constants in
            PredicateNode.comparison(ComparisonNode(
                left: left, right: .constant(ConstantValue(constants.count == 1 ? constants[0] : constants)),
                operatorType: constants.count == 1 ? .equalTo : .in, modifier: .direct, options: []
            ))
        }
        return merged + others
    }

    /// Operands joined by `AND` or `OR` in a shape SQLite prepares in time linear in their
    /// number, however many there are.
    ///
    /// SQLite's planner weighs the terms of a condition against each other (which index serves
    /// which, which implies which) in time quadratic in their number: ten thousand terms once
    /// took seconds. The first `visibleTerms` operands stay terms of their own, which an index can
    /// serve; the others are grouped in parenthesized groups of at most `groupSize`, nested as a
    /// balanced tree, each written `+(…)`: the unary plus leaves the value alone (NULL, 0 or 1,
    /// also under NOT) but makes the group a single value to the planner, which it computes
    /// (the dialect's `opaqueValuePrefix`; other databases keep the parenthesized group).
    /// The nesting also keeps the expression within SQLite's limit of 1000 levels, which a flat
    /// chain of a thousand terms reaches.
    func grouped(_ parts: [SQLFragment], separator: String) -> SQLFragment {
        let groupSize = 64
        let visibleTerms = groupSize - 1
        let terms = parts.map(\.parenthesized)
        guard terms.count > groupSize else { return SQLFragment.joined(terms, separator: separator) }
        var level = Array(terms[visibleTerms...])
        repeat {
            level = stride(from: 0, to: level.count, by: groupSize).map { start in
                let group = SQLFragment.joined(Array(level[start..<min(start + groupSize, level.count)]), separator: separator)
                return SQLFragment(sql: "\(dialect.opaqueValuePrefix)(\(group.sql))", bindings: group.bindings)
            }
        } while level.count > 1
        return SQLFragment.joined(terms[..<visibleTerms] + level, separator: separator)
    }

    // MARK: Operands

    /// What one side of a comparison stands for in SQL.
    enum Operand {
        /// A column holding an attribute's values.
        case attribute(String, NSAttributeDescription)
        /// A column holding primary keys of an entity: a to-one foreign key, or `Z_PK` for SELF.
        case objectKey(String, NSEntityDescription)
        /// A to-many relationship reached from a table alias, and the key path beyond it.
        case toMany(NSRelationshipDescription, ownerAlias: String, remainder: [String])
        /// A scalar SQL expression such as a `@count` subquery.
        case scalar(SQLFragment)
        /// A subquery listing primary keys of rows of an entity: the results of a fetch request
        /// expression the store answers itself.
        case keys(SQLFragment, NSEntityDescription)
        /// A constant value.
        case constant(Any?)
    }

    mutating func operand(_ expression: ExpressionNode, in scope: SQLScope) throws -> Operand {
        if let components = expression.rootedKeyPath {
            let operand = try keyPathOperand(components, in: scope)
            if case .toMany(let relationship, let ownerAlias, let remainder) = operand,
               let aggregate = try collectionOperatorSubquery(relationship, ownerAlias: ownerAlias, remainder: remainder) {
                return .scalar(aggregate)
            }
            return operand
        }
        if expression.isConstantFolding, expression.subexpressions.count > 0 {
            return .constant(try PredicateEvaluator().value(of: expression, with: nil))
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
        case .variable(let name), .variableKeyPath(_, let name):
            throw CoreDataError.invalidRequest("The predicate variable $\(name) has no value; substitute it before fetching.")
        case .keyPath(let base?, ["@count"]):
            return try countOperand(of: base, in: scope)
        case .keyPath:
            throw unsupported("a key path on a computed value")
        case .function(let function, let arguments):
            return try functionOperand(function, arguments, in: scope)
        case .method(_, let selector, _):
            throw unsupported("FUNCTION(…, \"\(selector)\") (custom functions cannot run in SQL)")
        case .subquery:
            throw unsupported("a SUBQUERY other than SUBQUERY(…).@count")
        case .setOperation(let operation, _, _):
            throw unsupported("the set expression \(operation.keyword)")
        case .conditional, .anyKey, .indexSymbol:
            throw unsupported(PredicateFormatPrinter.format(expression))
        case .fetchRequest(let request, _, let countOnly):
            // The context runs a fetch request expression before the fetch, or hands it over as a
            // StoreSubfetch, unless it reads the fetched object or sits inside another expression.
            guard case .constant(let constant) = request, let subfetch = constant.value as? StoreSubfetch else {
                throw unsupported("the fetch request expression \(PredicateFormatPrinter.format(expression)) inside another expression or reading the fetched object")
            }
            return try subfetchOperand(subfetch, countOnly: countOnly)
        case .block:
            throw unsupported("a block expression (block expressions work with in-memory stores only)")
        }
    }

    /// The operand a key path reads: a column of the scope's table or of a table joined through
    /// to-one relationships, or a to-many relationship and the key path beyond it.
    mutating func keyPathOperand(_ components: [String], in scope: SQLScope) throws -> Operand {
        let resolved = try scope.entity.resolve(keyPathComponents: components)
        let unknownKey = CoreDataError.unknownKey(components.joined(separator: "."), entity: scope.entity.entityName)
        var entity = scope.entity
        var alias = scope.alias
        var path = ""
        for step in resolved.steps {
            guard !step.property.isTransient else {
                throw CoreDataError.invalidRequest("The transient property '\(step.property.name)' of \(step.entity.entityName) cannot be used in a fetch from a \(dialect.storeName) store.")
            }
            if let leaves = try mapping(for: step.entity).compositeColumnsBySlot[step.slot], step.position == resolved.steps.last?.position {
                return try compositeOperand(leaves, at: resolved, alias: alias, unknownKey: unknownKey)
            }
            let column = try mapping(for: step.entity).columnBySlot[step.slot]
            let isLast = step.position == resolved.steps.last?.position && resolved.remainder.isEmpty
            switch step.kind {
            case .attribute(let attribute):
                // Reading into an attribute's value (`title.length`) takes key-value coding.
                guard isLast, let column else { throw unknownKey }
                return .attribute("\(alias).\(column)", attribute)
            case .toOne(let relationship):
                guard let column, let destination = relationship.destinationEntity else { throw unknownKey }
                if isLast { return .objectKey("\(alias).\(column)", destination) }
                path += (path.isEmpty ? "" : ".") + step.property.name
                let destinationTable = try mapping(for: destination).table
                let parentAlias = alias
                let newAlias = self.newAlias()
                let joined = scope.join(path: path) {
                    ("LEFT OUTER JOIN \(destinationTable) \(newAlias) ON \(newAlias).Z_PK = \(parentAlias).\(column)", newAlias, destination)
                }
                alias = joined.alias
                entity = joined.entity
            case .toMany(let relationship):
                return .toMany(relationship, ownerAlias: alias, remainder: Array(resolved.components(after: step)))
            }
        }
        guard resolved.remainder.isEmpty else { throw unknownKey }
        return .objectKey("\(alias).Z_PK", entity)
    }

    /// A leaf of a composite attribute (`magnitude.richter`) is its column; the composite itself
    /// is nil exactly when all its leaves are (1 when it is not: leaves of different types have
    /// no common value in every database).
    private func compositeOperand(_ leaves: [SQLSchema.CompositeColumn], at resolved: ResolvedKeyPath, alias: String, unknownKey: Error) throws -> Operand {
        guard resolved.remainder.isEmpty else {
            guard let leaf = resolved.compositeLeaf, let column = leaves.first(where: { $0.leaf.path == leaf.path }) else { throw unknownKey }
            return .attribute("\(alias).\(column.name)", leaf.attribute)
        }
        let columns = leaves.map { "\(alias).\($0.name)" }
        let allNull = columns.map { "\($0) IS NULL" }.joined(separator: " AND ")
        return .scalar(SQLFragment(sql: columns.count == 1 ? columns[0] : "CASE WHEN \(allNull) THEN NULL ELSE 1 END"))
    }

    // MARK: Comparisons

    mutating func compileComparison(_ comparison: ComparisonNode, in scope: SQLScope) throws -> SQLFragment {
        if let selector = comparison.customSelector {
            throw unsupported("the custom selector \(selector)")
        }
        let left = try operand(comparison.left, in: scope)
        let right = try operand(comparison.right, in: scope)
        if case .constant(let value) = left, comparison.modifier != .direct {
            return try compileQuantifiedConstant(value, comparison, right: right, in: scope)
        }
        return try compileComparison(comparison, left: left, right: right, in: scope)
    }

    /// A comparison whose operands are compiled.
    private mutating func compileComparison(_ comparison: ComparisonNode, left: Operand, right: Operand, in scope: SQLScope) throws -> SQLFragment {
        var (left, right) = (left, right)
        var type = comparison.operatorType
        if case .constant(let value) = left, !right.isConstant {
            // Apple's store refuses this rather than reading it as `key == nil`.
            guard !ValueUnwrapping.isNull(value) else {
                throw CoreDataError.invalidRequest("A fetch from a \(dialect.storeName) store can't use NULL on the left hand side of \(PredicateFormatPrinter.format(.comparison(comparison))).")
            }
            guard let flipped = Self.flipped(type) else {
                return try compileConstantOnLeft(comparison, left: left, right: right)
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
            return try compileConstants(value, type: type, options: comparison.options, right: right)
        case .toMany:
            throw unsupported("a to-many key path here")
        case .keys:
            throw unsupported("the results of a fetch request expression on the left of a comparison")
        }
    }

    /// `ANY {a, b} op x` and `ALL {a, b} op x`: the comparison of each element, joined by `OR`
    /// or `AND`. Nil is an empty collection, as in memory.
    ///
    /// A computed `x` is written once, as the column of a one-row subquery whose condition
    /// compares each element with it, so that the SQL stays linear in the predicate's size.
    private mutating func compileQuantifiedConstant(_ value: Any?, _ comparison: ComparisonNode, right: Operand, in scope: SQLScope) throws -> SQLFragment {
        let elements = ValueUnwrapping.isNull(value) ? [] : try Self.collectionElements(value)
        let type: NSCompoundPredicate.LogicalType = comparison.modifier == .all ? .and : .or
        guard case .scalar(let computed) = right, elements.count > 1 else {
            return try compileEach(elements, type, comparison, right: right, in: scope)
        }
        let alias = newAlias()
        let condition = try compileEach(elements, type, comparison, right: .scalar(SQLFragment(sql: "\(alias).value")), in: scope)
        return SQLFragment(
            sql: "(SELECT \(condition.sql) FROM (SELECT \(computed.sql) AS value) \(alias))",
            bindings: condition.bindings + computed.bindings
        )
    }

    /// The comparison of each element with `right`, joined by `AND` or `OR`.
    private mutating func compileEach(_ elements: [Any], _ type: NSCompoundPredicate.LogicalType, _ comparison: ComparisonNode, right: Operand, in scope: SQLScope) throws -> SQLFragment {
        let parts = try elements.map { element in
            let constant = ConstantValue(element)
            let node = ComparisonNode(
                left: .constant(constant), right: comparison.right,
                operatorType: comparison.operatorType, modifier: .direct, options: comparison.options
            )
            return try compileComparison(node, left: .constant(constant.value), right: right, in: scope)
        }
        if parts.isEmpty { return type == .and ? .alwaysTrue : .alwaysFalse }
        return grouped(parts, separator: type == .and ? " AND " : " OR ")
    }

    /// `constant IN keyPath` and `constant CONTAINS keyPath`, which cannot simply be flipped.
    private mutating func compileConstantOnLeft(_ comparison: ComparisonNode, left: Operand, right: Operand) throws -> SQLFragment {
        guard case .constant(let value) = left else { throw unsupported("this comparison") }
        switch (comparison.operatorType, right) {
        case (.in, .toMany(let relationship, let ownerAlias, let remainder)) where remainder.isEmpty:
            return try membership(of: value, in: relationship, ownerAlias: ownerAlias)
        case (.in, .attribute(let column, let attribute)):
            // `'abc' IN name` asks whether the attribute contains the constant.
            let needle = try stringConstant(value, comparedWith: attribute, operatorType: .in)
            return search(SQLFragment(sql: column), needle: needle, options: comparison.options, mode: .contains)
        case (.contains, .attribute(let column, let attribute)):
            let haystack = try stringConstant(value, comparedWith: attribute, operatorType: .contains)
            return search(haystack, needle: SQLFragment(sql: column), options: comparison.options, mode: .contains)
        default:
            throw unsupported("this comparison with a constant on the left")
        }
    }

    func compileScalar(_ fragment: SQLFragment, type: NSComparisonPredicate.Operator, right: Operand) throws -> SQLFragment {
        switch (type, right) {
        case (.equalTo, .constant(let value)) where ValueUnwrapping.isNull(value):
            return SQLFragment(sql: "\(fragment.sql) IS NULL", bindings: fragment.bindings)
        case (.notEqualTo, .constant(let value)) where ValueUnwrapping.isNull(value):
            return SQLFragment(sql: "\(fragment.sql) IS NOT NULL", bindings: fragment.bindings)
        case (.between, .constant(let bounds)):
            let (lower, upper) = try Self.bounds(bounds)
            let (low, high) = (SQLFragment.parameter(try scalarBinding(lower)), SQLFragment.parameter(try scalarBinding(upper)))
            return SQLFragment(sql: "\(fragment.sql) BETWEEN \(low.sql) AND \(high.sql)", bindings: fragment.bindings + low.bindings + high.bindings)
        case (.equalTo, .constant(let value)), (.notEqualTo, .constant(let value)), (.lessThan, .constant(let value)),
             (.lessThanOrEqualTo, .constant(let value)), (.greaterThan, .constant(let value)), (.greaterThanOrEqualTo, .constant(let value)):
            let parameter = SQLFragment.parameter(try scalarBinding(value))
            return SQLFragment(sql: "\(fragment.sql) \(Self.sqlOperator(type)) \(parameter.sql)", bindings: fragment.bindings + parameter.bindings)
        case (.equalTo, _), (.notEqualTo, _), (.lessThan, _), (.lessThanOrEqualTo, _), (.greaterThan, _), (.greaterThanOrEqualTo, _):
            let other: SQLFragment
            switch right {
            case .attribute(let column, _): other = SQLFragment(sql: column)
            case .scalar(let scalar): other = scalar
            default: throw unsupported("comparing a computed value with a relationship")
            }
            return SQLFragment(sql: "\(fragment.sql) \(Self.sqlOperator(type)) \(other.sql)", bindings: fragment.bindings + other.bindings)
        default:
            throw unsupported("\(type) on a computed value")
        }
    }

    /// A comparison of two constants, decided now.
    private func compileConstants(_ value: Any?, type: NSComparisonPredicate.Operator, options: NSComparisonPredicate.Options, right: Operand) throws -> SQLFragment {
        guard case .constant(let other) = right else { throw unsupported("this comparison") }
        let node = ComparisonNode(left: .constant(ConstantValue(value)), right: .constant(ConstantValue(other)), operatorType: type, modifier: .direct, options: options)
        return try PredicateEvaluator(variables: [:]).evaluate(.comparison(node), with: nil) ? .alwaysTrue : .alwaysFalse
    }

    // MARK: Support

    func mapping(for entity: NSEntityDescription) throws -> SQLSchema.EntityMapping {
        guard let mapping = schema.mapping(for: entity) else {
            throw CoreDataError.invalidRequest("The entity \(entity.entityName) is not stored in this \(dialect.storeName) store.")
        }
        return mapping
    }

    /// The two bounds of `BETWEEN`.
    static func bounds(_ value: Any?) throws -> (lower: Any?, upper: Any?) {
        let elements = try collectionElements(value)
        guard elements.count == 2 else {
            throw CoreDataError.invalidRequest("BETWEEN needs a collection of two bounds.")
        }
        return (ValueUnwrapping.nonNull(elements[0]), ValueUnwrapping.nonNull(elements[1]))
    }

    static func collectionElements(_ value: Any?) throws -> [Any] {
        guard let elements = CollectionElements.elements(of: value) else {
            throw CoreDataError.invalidRequest("IN and BETWEEN need a collection on their right side.")
        }
        return elements
    }

    static func sqlOperator(_ type: NSComparisonPredicate.Operator) -> String {
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

    func unsupported(_ what: String) -> NSError {
        CoreDataError.invalidRequest("The \(dialect.storeName) store cannot evaluate \(what) in a fetch.")
    }
}

extension SQLPredicateCompiler.Operand {
    var isConstant: Bool {
        if case .constant = self { return true }
        return false
    }
}
