/// A value as a relational store writes it in a column: the storage classes of SQLite, which
/// the other databases' columns mirror (`SQLDialect.declaration(_:)`).
package enum SQLValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}
