/// How a stored attribute value converts when a migration changes the attribute's type: the
/// conversions lightweight migration infers (between numbers, booleans included), written as SQL
/// over the source column.
enum AttributeConversion: Equatable {
    /// The stored value is already right for the new type.
    case none
    /// The value goes through a SQL expression; `%@` stands for the source column.
    case sql(String)

    /// The conversion between two attribute types, or nil when there is none.
    init?(from source: NSAttributeType, to destination: NSAttributeType) {
        if source == destination {
            self = .none
            return
        }
        switch (source, destination) {
        case (let source, .booleanAttributeType) where source.isNumeric:
            self = .sql("CASE WHEN %@ IS NULL THEN NULL WHEN %@ != 0 THEN 1 ELSE 0 END")
        case (let source, let destination) where source.isIntegerStorage && destination.isIntegerStorage:
            self = .none
        case (let source, let destination) where source.isFloatingStorage && destination.isFloatingStorage:
            self = .none
        case (let source, let destination) where source.isNumeric && destination.isIntegerStorage:
            self = .sql("CAST(%@ AS INTEGER)")
        case (let source, let destination) where source.isNumeric && destination.isFloatingStorage:
            self = .sql("CAST(%@ AS REAL)")
        default:
            return nil
        }
    }

    /// The SQL that reads the converted value of `column`.
    func expression(for column: String) -> String {
        switch self {
        case .none: column
        case .sql(let template): template.replacingOccurrences(of: "%@", with: column)
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
