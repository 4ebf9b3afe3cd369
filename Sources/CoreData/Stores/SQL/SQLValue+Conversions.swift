/// A value read as another storage class, as SQLite converts a column's value to the type a
/// reader asks for.
extension SQLValue {
    package var integerValue: Int64 {
        switch self {
        case .integer(let integer): integer
        case .real(let real): Int64(exactly: real.rounded(.towardZero)) ?? 0
        case .text(let text): Int64(text) ?? 0
        case .null, .blob: 0
        }
    }

    package var realValue: Double {
        switch self {
        case .integer(let integer): Double(integer)
        case .real(let real): real
        case .text(let text): Double(text) ?? 0
        case .null, .blob: 0
        }
    }

    package var textValue: String? {
        switch self {
        case .text(let text): text
        case .integer(let integer): String(integer)
        case .real(let real): String(real)
        case .blob(let data): String(decoding: data, as: UTF8.self)
        case .null: nil
        }
    }

    package var dataValue: Data? {
        switch self {
        case .blob(let data): data
        case .text(let text): Data(text.utf8)
        case .null, .integer, .real: nil
        }
    }
}
