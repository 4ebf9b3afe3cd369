/// A piece of SQL with the values of its `?` parameters, in order.
struct SQLFragment {
    var sql: String
    var bindings: [SQLValue] = []

    static let alwaysTrue = SQLFragment(sql: "TRUE")
    static let alwaysFalse = SQLFragment(sql: "FALSE")

    /// A bound value, written `nullif(?, NULL)`, which is the value itself.
    ///
    /// SQLite computes each constant of a statement once, before the first row, and looks for an
    /// equal constant among all those it has computed before: a statement of n bare `?` takes
    /// time quadratic in n to prepare (ten seconds at 20,000 values). A constant that calls a
    /// function is computed once too, without that search.
    static func parameter(_ value: SQLValue) -> SQLFragment {
        SQLFragment(sql: "nullif(?, NULL)", bindings: [value])
    }

    /// Bound values separated by commas, for `IN (…)`.
    static func parameters(_ values: [SQLValue]) -> SQLFragment {
        joined(values.map(parameter), separator: ", ")
    }

    /// Joins fragments with a separator, keeping their bindings in order.
    static func joined(_ fragments: [SQLFragment], separator: String) -> SQLFragment {
        SQLFragment(sql: fragments.map(\.sql).joined(separator: separator), bindings: fragments.flatMap(\.bindings))
    }

    /// The fragment in parentheses.
    var parenthesized: SQLFragment {
        SQLFragment(sql: "(\(sql))", bindings: bindings)
    }
}

/// A table alias in a query and the joins that hang off it, so that key paths through to-one
/// relationships (`movie.title`) become `LEFT OUTER JOIN`s, one per distinct path prefix.
final class SQLScope {
    let entity: NSEntityDescription
    let alias: String
    private(set) var joins: [String] = []
    private var joinedPaths: [String: (alias: String, entity: NSEntityDescription)] = [:]

    init(entity: NSEntityDescription, alias: String) {
        self.entity = entity
        self.alias = alias
    }

    /// The alias joined for a path prefix, creating the join with `make` the first time.
    func join(path: String, make: () -> (join: String, alias: String, entity: NSEntityDescription)) -> (alias: String, entity: NSEntityDescription) {
        if let existing = joinedPaths[path] { return existing }
        let made = make()
        joins.append(made.join)
        joinedPaths[path] = (made.alias, made.entity)
        return (made.alias, made.entity)
    }
}

/// What a SELECT returns: its columns, the columns its rows are grouped by, and whether
/// duplicate rows are dropped.
struct SQLProjection {
    var columns: SQLFragment
    var groupBy: [SQLFragment] = []
    var distinct = false
}
