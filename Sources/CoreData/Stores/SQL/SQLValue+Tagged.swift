/// A value in a column of no fixed type (a history tombstone, which holds the preserved values
/// of any entity's attributes): SQLite's columns take any value as it is, other databases'
/// hold it as bytes, a tag followed by the value.
extension SQLValue {
    /// The value as the column holds it in a database of a dialect.
    func untypedColumnValue(in dialect: SQLDialect) -> SQLValue {
        guard dialect.database != .sqlite else { return self }
        switch self {
        case .null: return .null
        case .integer(let value): return .blob(Data("i".utf8) + withUnsafeBytes(of: value.bigEndian) { Data($0) })
        case .real(let value): return .blob(Data("r".utf8) + withUnsafeBytes(of: value.bitPattern.bigEndian) { Data($0) })
        case .text(let value): return .blob(Data("t".utf8) + Data(value.utf8))
        case .blob(let value): return .blob(Data("b".utf8) + value)
        }
    }

    /// The value an untyped column holds, in a database of a dialect.
    init(untypedColumnValue stored: SQLValue, in dialect: SQLDialect) {
        guard dialect.database != .sqlite, case .blob(let bytes) = stored, let tag = bytes.first else {
            self = stored
            return
        }
        let payload = bytes.dropFirst()
        func word() -> UInt64 { payload.count == 8 ? payload.reduce(0) { $0 << 8 | UInt64($1) } : 0 }
        switch tag {
        case UInt8(ascii: "i"): self = .integer(Int64(bitPattern: word()))
        case UInt8(ascii: "r"): self = .real(Double(bitPattern: word()))
        case UInt8(ascii: "t"): self = .text(String(decoding: payload, as: UTF8.self))
        default: self = .blob(Data(payload))
        }
    }
}

/// One value read as a row of one column, for decoding a value read by other means.
struct SQLValueRow: SQLResultRow {
    let value: SQLValue

    func isNull(at index: Int32) -> Bool { value == .null }
    func value(at index: Int32) -> SQLValue { value }

    func int64(at index: Int32) -> Int64 {
        switch value {
        case .integer(let integer): integer
        case .real(let real): Int64(exactly: real.rounded(.towardZero)) ?? 0
        case .text(let text): Int64(text) ?? 0
        case .null, .blob: 0
        }
    }

    func double(at index: Int32) -> Double {
        switch value {
        case .integer(let integer): Double(integer)
        case .real(let real): real
        case .text(let text): Double(text) ?? 0
        case .null, .blob: 0
        }
    }

    func string(at index: Int32) -> String? {
        switch value {
        case .text(let text): text
        case .integer(let integer): String(integer)
        case .real(let real): String(real)
        case .blob(let data): String(decoding: data, as: UTF8.self)
        case .null: nil
        }
    }

    func data(at index: Int32) -> Data? {
        switch value {
        case .blob(let data): data
        case .text(let text): Data(text.utf8)
        case .null, .integer, .real: nil
        }
    }
}
