import CoreData
import NIOCore
import PostgresNIO

/// A statement on a `PostgreSQLConnection`: its `?` parameters are bound by position and sent
/// with the SQL (as `$1`, `$2`, …), and the first `step()` runs it and keeps its rows.
final class PostgreSQLStatement: SQLStatement {
    private unowned let connection: PostgreSQLConnection
    /// The SQL with numbered parameters, as PostgreSQL reads it.
    let sql: String
    private var values: [SQLValue]
    private var rows: [PostgresRandomAccessRow]?
    private var position = -1

    init(sql: String, connection: PostgreSQLConnection) {
        let numbered = Self.numberingParameters(of: sql)
        self.sql = numbered.sql
        self.connection = connection
        values = Array(repeating: .null, count: numbered.count)
    }

    /// The number of columns each row has; asked before the first step, it runs the statement.
    var columnCount: Int32 {
        (try? runIfNeeded()).flatMap { rows?.first.map { Int32($0.count) } } ?? 0
    }

    func bind(_ value: Int64, at index: Int32) {
        bind(.integer(value), at: index)
    }

    func bind(_ value: SQLValue, at index: Int32) {
        rows = nil
        let position = Int(index) - 1
        if position >= values.count { values += Array(repeating: .null, count: position - values.count + 1) }
        values[position] = value
    }

    @discardableResult
    func step() throws -> Bool {
        try runIfNeeded()
        position += 1
        guard position < rows?.count ?? 0 else {
            // As SQLite's statements do, the next step runs the statement again.
            rows = nil
            return false
        }
        return true
    }

    /// Runs the statement with its bindings, unless its rows are there already.
    private func runIfNeeded() throws {
        guard rows == nil else { return }
        let result = try connection.run(PostgresQuery(unsafeSQL: sql, binds: bindings()))
        rows = result.rows.map { $0.makeRandomAccess() }
        position = -1
    }

    func reset() {
        rows = nil
        position = -1
        values = Array(repeating: .null, count: values.count)
    }

    func readFirstRow<Value>(_ read: (PostgreSQLStatement) throws -> Value) throws -> Value? {
        defer { reset() }
        guard try step() else { return nil }
        return try read(self)
    }

    func run() throws {
        defer { rows = nil }
        try step()
    }

    // MARK: Reading

    private var current: PostgresRandomAccessRow? {
        guard let rows, position >= 0, position < rows.count else { return nil }
        return rows[position]
    }

    private func cell(_ index: Int32) -> PostgresCell? {
        guard let current, index >= 0, Int(index) < current.count else { return nil }
        let cell = current[Int(index)]
        return cell.bytes == nil ? nil : cell
    }

    func isNull(at index: Int32) -> Bool {
        cell(index) == nil
    }

    func int64(at index: Int32) -> Int64 {
        switch value(at: index) {
        case .integer(let value): value
        case .real(let value): Int64(exactly: value.rounded(.towardZero)) ?? 0
        case .text(let text): Int64(text) ?? 0
        case .null, .blob: 0
        }
    }

    func double(at index: Int32) -> Double {
        switch value(at: index) {
        case .integer(let value): Double(value)
        case .real(let value): value
        case .text(let text): Double(text) ?? 0
        case .null, .blob: 0
        }
    }

    func string(at index: Int32) -> String? {
        switch value(at: index) {
        case .text(let text): text
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .blob(let data): String(decoding: data, as: UTF8.self)
        case .null: nil
        }
    }

    func data(at index: Int32) -> Data? {
        switch value(at: index) {
        case .blob(let data): data
        case .text(let text): Data(text.utf8)
        case .null, .integer, .real: nil
        }
    }

    /// The column's value as the storage class SQLite would have returned: the layout's
    /// columns hold 64-bit integers, doubles, text and bytes; computed columns (sums, averages)
    /// come as numerics, integral ones as integers.
    func value(at index: Int32) -> SQLValue {
        guard let cell = cell(index) else { return .null }
        do {
            switch cell.dataType {
            case .int8, .int4, .int2:
                return .integer(try cell.decode(Int64.self))
            case .bool:
                return .integer(try cell.decode(Bool.self) ? 1 : 0)
            case .float8, .float4:
                return .real(try cell.decode(Double.self))
            case .numeric:
                let decimal = try cell.decode(Decimal.self)
                let integral = NSDecimalNumber(decimal: decimal)
                if decimal == decimal.rounded(), let exact = Int64(exactly: integral.doubleValue) { return .integer(exact) }
                return .real(integral.doubleValue)
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
