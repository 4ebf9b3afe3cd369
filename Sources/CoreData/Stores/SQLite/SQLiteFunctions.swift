import CSQLite

/// The functions of `SQLFunctions`, which the store registers on its connection so that string
/// comparisons with options, LIKE and MATCHES run in SQL with exactly the semantics of the
/// in-memory evaluator (they call the same `StringOperators`). SQLite's own `LIKE` has other
/// wildcards and case rules, and its `upper` and `lower` change ASCII letters only, so they are
/// never used.
///
/// Each comparison method sort descriptors support other than `compare:` (which is SQLite's byte
/// order) is also a collation, named by `SortComparison.collationName`
/// (`cd_localized_standard_compare`, …), that calls the same `SortComparison.compare(_:_:)` as
/// sorting in memory; ORDER BY terms of string attributes use it.
///
/// Stores written by Apple's Core Data may carry triggers that call
/// `NSCoreDataDATriggerUpdatedAffectedObjectValue` and `NSCoreDataDATriggerInsertUpdatedAffectedObjectValue`;
/// they are registered as no-ops so that writes to such tables succeed.
enum SQLiteFunctions {
    private typealias SearchMode = SQLFunctions.SearchMode

    static func register(on connection: SQLiteConnection) throws {
        try define(SQLFunctions.equal, arguments: 3, on: connection) { arguments in
            guard let lhs = text(arguments[0]), let rhs = text(arguments[1]) else { return nil }
            return StringOperators.isEqual(lhs, rhs, options: options(arguments[2])) ? 1 : 0
        }
        try define(SQLFunctions.compare, arguments: 3, on: connection) { arguments in
            guard let lhs = text(arguments[0]), let rhs = text(arguments[1]) else { return nil }
            return Int64(StringOperators.compare(lhs, rhs, options: options(arguments[2])).rawValue)
        }
        try define(SQLFunctions.search, arguments: 4, on: connection) { arguments in
            let options = options(arguments[2])
            let mode = SearchMode(rawValue: sqlite3_value_int64(arguments[3]))
            if mode == .beginsWith, let decided = asciiPrefixMatch(arguments[0], arguments[1], options: options) {
                return decided ? 1 : 0
            }
            guard let string = text(arguments[0]), let needle = text(arguments[1]) else { return 0 }
            switch mode {
            case .beginsWith?: return StringOperators.hasPrefix(string, needle, options: options) ? 1 : 0
            case .endsWith?: return StringOperators.hasSuffix(string, needle, options: options) ? 1 : 0
            default: return StringOperators.contains(string, needle, options: options) ? 1 : 0
            }
        }
        try define(SQLFunctions.like, arguments: 3, on: connection) { arguments in
            guard let string = text(arguments[0]), let pattern = text(arguments[1]) else { return 0 }
            return StringOperators.like(string, pattern: pattern, options: options(arguments[2])) ? 1 : 0
        }
        try define(SQLFunctions.matches, arguments: 3, on: connection) { arguments in
            guard let string = text(arguments[0]), let pattern = text(arguments[1]) else { return 0 }
            return StringOperators.matches(string, regularExpression: pattern, options: options(arguments[2])) ? 1 : 0
        }
        for (name, toUppercase) in [(SQLFunctions.uppercase, true), (SQLFunctions.lowercase, false)] {
            try defineText(name, arguments: 1, on: connection) { arguments in
                text(arguments[0]).map { FunctionEvaluation.changedCase($0, toUppercase: toUppercase) }
            }
        }
        for (name, function) in [(SQLFunctions.divide, ExpressionFunction.divide), (SQLFunctions.modulus, .modulus)] {
            try defineFunction(name, arguments: 3, on: connection, deterministic: true) { arguments in
                let integral = sqlite3_value_int64(arguments[2]) != 0
                guard let dividend = number(arguments[0], integral: integral), let divisor = number(arguments[1], integral: integral),
                      let result = try? FunctionEvaluation.apply(function, to: [dividend, divisor]), let quotient = PredicateNumber(result) else {
                    return .null
                }
                switch quotient {
                case .integer(let value): return .integer(value)
                case .floating(let value): return .real(value)
                }
            }
        }
        for name in ["NSCoreDataDATriggerUpdatedAffectedObjectValue", "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue"] {
            try define(name, arguments: 5, on: connection, deterministic: false) { _ in nil }
        }
        for comparison in SortComparison.allCases {
            if let collation = comparison.collationName {
                try defineCollation(collation, comparing: comparison, on: connection)
            }
        }
    }

    // MARK: Registration

    /// What a function returns to SQLite.
    private enum Result {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
    }

    private typealias Body = ([OpaquePointer?]) -> Result

    /// Boxes a Swift closure for SQLite's C callback.
    private final class FunctionBox {
        let body: Body
        init(_ body: @escaping Body) { self.body = body }
    }

    /// A function returning an integer, or NULL for nil.
    private static func define(_ name: String, arguments: Int32, on connection: SQLiteConnection, deterministic: Bool = true, _ body: @escaping ([OpaquePointer?]) -> Int64?) throws {
        try defineFunction(name, arguments: arguments, on: connection, deterministic: deterministic) { body($0).map(Result.integer) ?? .null }
    }

    /// A function returning text, or NULL for nil.
    private static func defineText(_ name: String, arguments: Int32, on connection: SQLiteConnection, _ body: @escaping ([OpaquePointer?]) -> String?) throws {
        try defineFunction(name, arguments: arguments, on: connection, deterministic: true) { body($0).map(Result.text) ?? .null }
    }

    private static func defineFunction(_ name: String, arguments: Int32, on connection: SQLiteConnection, deterministic: Bool, _ body: @escaping Body) throws {
        let box = Unmanaged.passRetained(FunctionBox(body)).toOpaque()
        let flags = SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0)
        let code = sqlite3_create_function_v2(connection.handle, name, arguments, flags, box, { context, count, values in
            guard let context, let box = sqlite3_user_data(context) else { return }
            let function = Unmanaged<FunctionBox>.fromOpaque(box).takeUnretainedValue()
            let arguments = (0..<Int(count)).map { values?[$0] }
            SQLiteFunctions.setResult(function.body(arguments), of: context)
        }, nil, nil, { box in
            if let box { Unmanaged<FunctionBox>.fromOpaque(box).release() }
        })
        guard code == SQLITE_OK else {
            throw connection.error(code: code, sql: nil)
        }
    }

    /// Registers a comparison as a collation. The comparison travels in the collation's context
    /// pointer as its raw value, rather than in a box: SQLite calls a collation for every
    /// comparison of a sort, where reference counting would cost more than comparing.
    private static func defineCollation(_ name: String, comparing comparison: SortComparison, on connection: SQLiteConnection) throws {
        let context = UnsafeMutableRawPointer(bitPattern: comparison.rawValue + 1)
        let code = sqlite3_create_collation_v2(connection.handle, name, SQLITE_UTF8, context, { context, lhsCount, lhs, rhsCount, rhs in
            guard let comparison = SortComparison(rawValue: Int(bitPattern: context) - 1) else { return 0 }
            // SQLite passes the bytes and their count, without a terminating NUL; embedded NULs are kept.
            return Int32(comparison.compare(utf8: UnsafeRawBufferPointer(start: lhs, count: Int(lhsCount)), UnsafeRawBufferPointer(start: rhs, count: Int(rhsCount))).rawValue)
        }, nil)
        guard code == SQLITE_OK else {
            throw connection.error(code: code, sql: nil)
        }
    }

    private static func setResult(_ result: Result, of context: OpaquePointer) {
        switch result {
        case .null:
            sqlite3_result_null(context)
        case .integer(let integer):
            sqlite3_result_int64(context, integer)
        case .real(let real):
            // SQLite returns NaN as NULL.
            sqlite3_result_double(context, real)
        case .text(var text):
            // By byte count, so that embedded NULs are kept; an empty buffer may have no address.
            text.withUTF8 { bytes in
                guard let base = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_result_text(context, "", 0, csqlite_transient)
                }
                base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_result_text64(context, $0, sqlite3_uint64(bytes.count), csqlite_transient, UInt8(SQLITE_UTF8))
                }
            }
        }
    }

    /// `BEGINSWITH` decided on the bytes, without making strings, when the prefix and the start of
    /// the string are ASCII and the options are at most `[c]` and `[d]`; nil when the full folding
    /// of `StringOperators` must decide. ASCII letters fold by case alone and carry no marks, but
    /// a combining mark right after the prefix would join its last letter, so a match then is
    /// left undecided.
    private static func asciiPrefixMatch(_ stringValue: OpaquePointer?, _ prefixValue: OpaquePointer?, options: NSComparisonPredicate.Options) -> Bool? {
        guard options.isSubset(of: [.caseInsensitive, .diacriticInsensitive]),
              sqlite3_value_type(stringValue) != SQLITE_NULL, sqlite3_value_type(prefixValue) != SQLITE_NULL,
              let string = sqlite3_value_text(stringValue), let prefix = sqlite3_value_text(prefixValue) else { return nil }
        let stringCount = Int(sqlite3_value_bytes(stringValue))
        let prefixCount = Int(sqlite3_value_bytes(prefixValue))
        guard prefixCount > 0, prefixCount <= stringCount else { return nil }
        let caseInsensitive = options.contains(.caseInsensitive)
        for index in 0..<prefixCount {
            let lhs = string[index]
            let rhs = prefix[index]
            guard lhs < 0x80, rhs < 0x80 else { return nil }
            if caseInsensitive ? asciiLowercase(lhs) != asciiLowercase(rhs) : lhs != rhs { return false }
        }
        return prefixCount == stringCount || string[prefixCount] < 0x80 ? true : nil
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    /// The argument as a string, read by its byte count so that embedded NULs are kept.
    private static func text(_ value: OpaquePointer?) -> String? {
        guard sqlite3_value_type(value) != SQLITE_NULL, let text = sqlite3_value_text(value) else { return nil }
        let count = Int(sqlite3_value_bytes(value))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The argument as a number, an integer when `integral` and SQLite holds one; nil for NULL.
    private static func number(_ value: OpaquePointer?, integral: Bool) -> NSNumber? {
        switch sqlite3_value_type(value) {
        case SQLITE_NULL: nil
        case SQLITE_INTEGER where integral: NSNumber(value: sqlite3_value_int64(value))
        default: NSNumber(value: sqlite3_value_double(value))
        }
    }

    private static func options(_ value: OpaquePointer?) -> NSComparisonPredicate.Options {
        NSComparisonPredicate.Options(rawValue: UInt(truncatingIfNeeded: sqlite3_value_int64(value)))
    }
}
