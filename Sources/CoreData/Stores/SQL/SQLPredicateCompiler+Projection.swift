/// The select list of dictionary fetches: key paths (joined like the predicate's), arithmetic and
/// other expressions the compiler can express, and the aggregates `sum:`, `count:`, `min:`,
/// `max:` and `average:` over them.
extension SQLPredicateCompiler {
    /// A selected value and how it reads back from a result row.
    struct SelectItem {
        let fragment: SQLFragment
        let decoding: Decoding

        /// The item's columns in a select list: one, or two for an object ID that needs its
        /// entity number.
        var columns: SQLFragment {
            guard case .objectID(_, let entityColumn?) = decoding else { return fragment }
            return SQLFragment(sql: fragment.sql + ", " + entityColumn, bindings: fragment.bindings)
        }

        /// The number of columns of `columns`.
        var columnCount: Int {
            guard case .objectID(_, _?) = decoding else { return 1 }
            return 2
        }
    }

    /// How a selected value reads back.
    enum Decoding {
        /// A column of an attribute, decoded as the attribute's values are.
        case attribute(NSAttributeDescription)
        /// A primary key of the entity's rows, and the SQL of their entity number when the
        /// entity has sub-entities.
        case objectID(NSEntityDescription, entityColumn: String?)
        /// A computed value, read as SQLite returns it.
        case computed
        /// A computed date: seconds since 2001, as dates are stored.
        case date
        /// A constant, returned as it is.
        case constant(Any?)
    }

    mutating func selectItem(_ expression: ExpressionNode, in scope: SQLScope) throws -> SelectItem {
        if case .function(let function, let arguments) = expression, arguments.count == 1, let name = Self.sqlAggregate(function) {
            return try aggregateItem(name, function: function, of: arguments[0], in: scope)
        }
        switch try operand(expression, in: scope) {
        case .attribute(let column, let attribute):
            return SelectItem(fragment: SQLFragment(sql: column), decoding: .attribute(attribute))
        case .objectKey(let column, let entity):
            let hierarchy = entity.selfAndDescendants.filter { schema.mapping(for: $0) != nil }
            let table = try mapping(for: entity).table
            let entityColumn = hierarchy.count > 1 ? "(SELECT Z_ENT FROM \(table) WHERE Z_PK = \(column))" : nil
            return SelectItem(fragment: SQLFragment(sql: column), decoding: .objectID(entity, entityColumn: entityColumn))
        case .scalar(let fragment):
            return SelectItem(fragment: fragment, decoding: Self.isDateValued(expression, from: scope.entity) ? .date : .computed)
        case .constant(let value):
            return SelectItem(fragment: .parameter(try scalarBinding(value)), decoding: .constant(value))
        case .toMany(let relationship, _, _):
            throw unsupported("the to-many relationship '\(relationship.name)' in a dictionary result")
        case .keys:
            throw unsupported("the results of a fetch request expression in a dictionary result")
        }
    }

    /// `COALESCE(SUM(x), 0)`, `COUNT(x)`, `MIN(x)`, `MAX(x)` or `AVG(x)`; `min:` and `max:` read
    /// back as the values they pick (dates stay dates).
    private mutating func aggregateItem(_ name: String, function: ExpressionFunction, of argument: ExpressionNode, in scope: SQLScope) throws -> SelectItem {
        let inner = try selectItem(argument, in: scope)
        if case .objectID = inner.decoding, function != .count {
            throw unsupported("\(function.selector) of a relationship")
        }
        let column = inner.fragment
        let sql = function == .sum ? "COALESCE(SUM(\(column.sql)), 0)" : "\(name)(\(column.sql))"
        let decoding: Decoding = switch (function, inner.decoding) {
        case (.min, .attribute(let attribute)), (.max, .attribute(let attribute)): .attribute(attribute)
        default: .computed
        }
        return SelectItem(fragment: SQLFragment(sql: sql, bindings: column.bindings), decoding: decoding)
    }

    private static func sqlAggregate(_ function: ExpressionFunction) -> String? {
        switch function {
        case .sum: "SUM"
        case .count: "COUNT"
        case .min: "MIN"
        case .max: "MAX"
        case .average: "AVG"
        default: nil
        }
    }
}
