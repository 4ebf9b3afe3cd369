import CoreData
import NIOCore
import PostgresNIO

/// A statement on a `PostgreSQLConnection`: its `?` parameters are bound by position and sent
/// with the SQL (as `$1`, `$2`, …), and the first `step()` runs it. Its rows arrive as the
/// steps read them; each step decodes the row it reaches once, into the values the columns are
/// read from.
final class PostgreSQLStatement: SQLStatement {
    private unowned let connection: PostgreSQLConnection
    /// The SQL with numbered parameters, as PostgreSQL reads it.
    let sql: String
    private var values: [SQLValue]
    /// The rows of the statement's run, until its last is read.
    private var stream: PostgreSQLRowStream?
    /// The row the statement is on, decoded.
    private var current: [SQLValue] = []

    init(sql: String, connection: PostgreSQLConnection) {
        let numbered = Self.numberingParameters(of: sql)
        self.sql = numbered.sql
        self.connection = connection
        values = Array(repeating: .null, count: numbered.count)
    }

    func bind(_ value: Int64, at index: Int32) {
        bind(.integer(value), at: index)
    }

    func bind(_ value: SQLValue, at index: Int32) {
        abandonRun()
        let position = Int(index) - 1
        if position >= values.count { values += Array(repeating: .null, count: position - values.count + 1) }
        values[position] = value
    }

    /// Moves to the next row, running the statement first when it is not running; false after
    /// the last row, and the next step runs it again, as SQLite's statements do.
    @discardableResult
    func step() throws -> Bool {
        guard let row = try connection.nextRow(of: &stream, query: PostgresQuery(unsafeSQL: sql, binds: bindings())) else { return false }
        current.removeAll(keepingCapacity: true)
        for cell in row {
            current.append(Self.value(of: cell))
        }
        return true
    }

    func reset() {
        abandonRun()
        values = Array(repeating: .null, count: values.count)
    }

    /// Ends a run whose remaining rows are not wanted: the connection's next query waits for it
    /// anyway, and its count of changed rows is then known.
    private func abandonRun() {
        guard let stream else { return }
        self.stream = nil
        try? connection.finish(stream)
    }

    func readFirstRow<Value>(_ read: (PostgreSQLStatement) throws -> Value) throws -> Value? {
        defer { reset() }
        guard try step() else { return nil }
        return try read(self)
    }

    func run() throws {
        try step()
        guard let stream else { return }
        self.stream = nil
        try connection.finish(stream)
    }

    // MARK: Reading

    private func column(_ index: Int32) -> SQLValue {
        index >= 0 && Int(index) < current.count ? current[Int(index)] : .null
    }

    func isNull(at index: Int32) -> Bool { column(index) == .null }
    func int64(at index: Int32) -> Int64 { column(index).integerValue }
    func double(at index: Int32) -> Double { column(index).realValue }
    func string(at index: Int32) -> String? { column(index).textValue }
    func data(at index: Int32) -> Data? { column(index).dataValue }
    func value(at index: Int32) -> SQLValue { column(index) }

    /// A cell's value as the storage class SQLite would have returned: the layout's columns hold
    /// 64-bit integers, doubles, text and bytes, read from their binary form; computed columns
    /// (sums, averages) come as numerics, integral ones as integers.
    private static func value(of cell: PostgresCell) -> SQLValue {
        guard var bytes = cell.bytes else { return .null }
        if cell.format == .binary {
            switch cell.dataType {
            case .int8: if let value = bytes.readInteger(as: Int64.self) { return .integer(value) }
            case .int4: if let value = bytes.readInteger(as: Int32.self) { return .integer(Int64(value)) }
            case .int2: if let value = bytes.readInteger(as: Int16.self) { return .integer(Int64(value)) }
            case .float8: if let bits = bytes.readInteger(as: UInt64.self) { return .real(Double(bitPattern: bits)) }
            case .float4: if let bits = bytes.readInteger(as: UInt32.self) { return .real(Double(Float(bitPattern: bits))) }
            case .bool: if let byte = bytes.readInteger(as: UInt8.self) { return .integer(byte == 0 ? 0 : 1) }
            case .text, .varchar, .name, .bpchar: return .text(bytes.readString(length: bytes.readableBytes) ?? "")
            case .bytea: return .blob(Data(bytes.readableBytesView))
            default: break
            }
        }
        do {
            switch cell.dataType {
            case .numeric:
                // Sums of integers are numerics: integral ones in range come back exact.
                let decimal = try cell.decode(Decimal.self)
                let number = NSDecimalNumber(decimal: decimal)
                if decimal == decimal.rounded(), abs(decimal) < Decimal(Int64.max) { return .integer(number.int64Value) }
                return .real(number.doubleValue)
            case .bytea:
                return .blob(Data(try cell.decode(ByteBuffer.self).readableBytesView))
            default:
                return .text(try cell.decode(String.self))
            }
        } catch {
            return .null
        }
    }

    // MARK: Parameters

    private func bindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .null: bindings.appendNull()
            case .integer(let integer): bindings.append(integer)
            // SQLite, whose values the relational layer's are, stores a NaN as NULL.
            case .real(let real) where real.isNaN: bindings.appendNull()
            case .real(let real): bindings.append(real)
            case .text(let text): bindings.append(text)
            case .blob(let data): bindings.append(ByteBuffer(bytes: data))
            }
        }
        return bindings
    }

    /// The SQL with each `?` outside quotes numbered in order (`$1`, `$2`, …), and their number.
    static func numberingParameters(of sql: String) -> (sql: String, count: Int) {
        var numbered = ""
        numbered.reserveCapacity(sql.utf8.count + 16)
        var count = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                numbered.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                numbered.append(character)
            } else if character == "?" {
                count += 1
                numbered += "$\(count)"
            } else {
                numbered.append(character)
            }
        }
        return (numbered, count)
    }
}

extension Decimal {
    fileprivate func rounded() -> Decimal {
        var value = self
        var result = Decimal()
        NSDecimalRound(&result, &value, 0, .plain)
        return result
    }
}
