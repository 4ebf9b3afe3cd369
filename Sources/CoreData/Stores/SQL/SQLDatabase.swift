/// A connection to a database that a relational store runs its SQL on.
package protocol SQLDatabase: AnyObject {
    associatedtype Statement: SQLStatement

    /// Where the database is, for errors.
    var location: URL { get }

    /// How the database spells what databases disagree on.
    var dialect: SQLDialect { get }

    /// A statement for `sql`, whose `?` parameters bind by position; a connection that prepares
    /// statements keeps them for the next call with the same SQL.
    func statement(_ sql: String) throws -> Statement

    /// Runs SQL that binds nothing and returns no rows.
    func execute(_ sql: String) throws

    /// The number of rows the last statement inserted, changed or deleted.
    var changes: Int { get }

    /// Runs `body` in a transaction, committing when it returns and rolling back when it throws.
    func transaction<Result>(_ body: () throws -> Result) throws -> Result

    /// Runs `body`, which only reads, in a transaction that sees one snapshot of the data.
    func readTransaction<Result>(_ body: () throws -> Result) throws -> Result
}

/// A statement of a `SQLDatabase`: its parameters bound (1-based), then its rows read one by one
/// (`SQLResultRow`, 0-based columns).
package protocol SQLStatement: AnyObject, SQLResultRow {
    func bind(_ value: Int64, at index: Int32)
    func bind(_ value: SQLValue, at index: Int32)

    /// Advances to the next row; false when there are no more rows.
    @discardableResult
    func step() throws -> Bool

    /// Forgets the rows and the bindings, so that the statement runs again.
    func reset()

    /// Steps to the first row and reads it with `read`, then resets the statement.
    func readFirstRow<Value>(_ read: (Self) throws -> Value) throws -> Value?

    /// Runs a statement that returns no rows.
    func run() throws
}

extension SQLDatabase {
    /// The integer in the first column of the first row `sql` returns; nil without a row. The
    /// statement is reset after, so that it holds no lock on the tables it read (a pending read
    /// blocks SQLite's `DROP`).
    package func scalar(_ sql: String) throws -> Int64? {
        try statement(sql).readFirstRow { $0.int64(at: 0) }
    }
}

extension SQLStatement {
    /// Binds the values of a fragment's parameters, in order.
    package func bind(_ values: [SQLValue]) {
        for (index, value) in values.enumerated() {
            bind(value, at: Int32(index + 1))
        }
    }
}
