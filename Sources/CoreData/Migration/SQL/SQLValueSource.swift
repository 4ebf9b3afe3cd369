/// The value a destination column takes for the rows of one source entity, as SQL over the
/// source row.
enum SQLValueSource: Equatable {
    /// NULL: a property with no source and no default.
    case null
    /// A source column, copied as it is.
    case column(String)
    /// A source column, with a literal where it is NULL (a property that became mandatory).
    case columnOrDefault(String, literal: String)
    /// A literal (the default value of a new property).
    case literal(String)
    /// Any other SQL expression over the source row.
    case expression(String)

    var sql: String {
        switch self {
        case .null: "NULL"
        case .column(let column): column
        case .columnOrDefault(let column, let literal): "COALESCE(\(column), \(literal))"
        case .literal(let literal): literal
        case .expression(let expression): expression
        }
    }

    /// The SQL literal of an attribute value as the store writes it, or nil when the value has no
    /// literal form (a value that must be archived or encoded).
    static func literal(_ value: Any?, for attribute: NSAttributeDescription, in dialect: SQLDialect) -> String? {
        guard let value = ValueUnwrapping.nonNull(value), let encoded = try? SQLValueCodec.encode(value, for: attribute) else { return nil }
        switch encoded {
        case .integer(let integer): return String(integer)
        case .real(let real) where real.isFinite: return "\(real)"
        case .text(let text): return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data):
            let stored = attribute.allowsExternalBinaryDataStorage ? ExternalBinaryStorage.inlineColumn(data) : data
            return dialect.blobLiteral(stored)
        default: return nil
        }
    }
}
