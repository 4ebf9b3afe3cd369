/// How a stored attribute value converts when a migration changes the attribute's type: the
/// conversions lightweight migration infers (between numbers, booleans included), written as SQL
/// over the source column.
enum AttributeConversion: Equatable {
    /// The stored value is already right for the new type.
    case none
    /// A number becomes a Boolean: 1 when it is not zero.
    case toBoolean
    /// A number becomes an integer, truncated toward zero.
    case toInteger
    /// A number becomes a floating-point number.
    case toReal

    /// The conversion between two attribute types, or nil when there is none.
    init?(from source: NSAttributeType, to destination: NSAttributeType) {
        if source == destination {
            self = .none
            return
        }
        switch (source, destination) {
        case (let source, .booleanAttributeType) where source.isNumeric:
            self = .toBoolean
        case (let source, let destination) where source.isIntegerStorage && destination.isIntegerStorage:
            self = .none
        case (let source, let destination) where source.isFloatingStorage && destination.isFloatingStorage:
            self = .none
        case (let source, let destination) where source.isNumeric && destination.isIntegerStorage:
            self = .toInteger
        case (let source, let destination) where source.isNumeric && destination.isFloatingStorage:
            self = .toReal
        default:
            return nil
        }
    }

    /// The SQL that reads the converted value of `column`, in a database's dialect.
    func expression(for column: String, in dialect: SQLDialect) -> String {
        switch self {
        case .none: column
        case .toBoolean: "CASE WHEN \(column) IS NULL THEN NULL WHEN \(column) != 0 THEN 1 ELSE 0 END"
        case .toInteger: dialect.integerConversion(of: column)
        case .toReal: "CAST(\(column) AS \(dialect.declaration("REAL")))"
        }
    }
}

private extension NSAttributeType {
    /// Stored as SQLite integers: integers and booleans.
    var isIntegerStorage: Bool {
        isInteger || self == .booleanAttributeType
    }

    /// Stored as SQLite reals: doubles, floats and decimals.
    var isFloatingStorage: Bool {
        self == .doubleAttributeType || self == .floatAttributeType || self == .decimalAttributeType
    }
}
