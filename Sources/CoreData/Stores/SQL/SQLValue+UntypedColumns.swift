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
