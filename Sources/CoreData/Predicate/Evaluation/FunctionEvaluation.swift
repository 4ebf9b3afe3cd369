/// The built-in functions of expressions, applied to argument values (spec §4.8), with the
/// semantics of Apple's implementation:
/// - `+ - * / %` stay integers while every operand is an integer and the result fits (`5 / 2` is
///   2, and an integer divided by 0 is 0), and are doubles otherwise; a date plus or minus a
///   number of seconds is a date, and the difference of two dates is a number of seconds.
/// - `**`, `sqrt:`, `log:` (base 10), `ln:`, `exp:`, `floor:`, `ceiling:` and `trunc:` are doubles.
/// - `sum:` of nothing is 0; `average:`, `min:` and `max:` need at least one number; `median:` of
///   an even count is the mean of the middle two; `mode:` lists every most frequent value;
///   `stddev:` is the population standard deviation.
///
/// Apple raises for a nil operand of a numeric function; here the result is nil, as SQL's NULL
/// is, so that memory and the SQLite store agree.
enum FunctionEvaluation {
    static func apply(_ function: ExpressionFunction, to arguments: [Any?]) throws -> Any? {
        guard arguments.count == function.arity else {
            throw PredicateEvaluationError.invalidOperand("\(function.selector) takes \(function.arity) arguments, found \(arguments.count)")
        }
        switch function {
        case .sum, .count, .min, .max, .average, .median, .mode, .standardDeviation:
            return try statistic(function, of: collection(arguments[0], for: function))
        case .add, .subtract, .multiply, .divide, .modulus, .power:
            return try arithmetic(function, arguments[0], arguments[1])
        case .squareRoot, .logarithm, .naturalLogarithm, .exponential, .floor, .ceiling, .absoluteValue, .truncate:
            return try unary(function, arguments[0])
        case .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift, .onesComplement:
            return try bitwise(function, arguments)
        case .random:
            return NSNumber(value: Double.random(in: 0..<1))
        case .randomBelow:
            guard let bound = try number(arguments[0], for: function)?.exactInteger, bound > 0 else { return nil }
            return NSNumber(value: Int64.random(in: 0..<bound))
        case .now:
            return Date()
        case .uppercase, .lowercase:
            return try changingCase(function, arguments[0])
        case .noIndex:
            return arguments[0]
        case .index:
            return try IndexAccess.element(of: arguments[0], at: arguments[1])
        case .cast:
            return try ValueCast.cast(arguments[0], to: arguments[1])
        }
    }

    // MARK: Statistics

    private static func collection(_ value: Any?, for function: ExpressionFunction) throws -> [Any] {
        guard let elements = CollectionElements.elements(of: value) else {
            throw PredicateEvaluationError.invalidOperand("\(function.selector) needs a collection, found \(type(of: value ?? NSNull()))")
        }
        return elements.compactMap(ValueUnwrapping.nonNull)
    }

    private static func statistic(_ function: ExpressionFunction, of values: [Any]) throws -> Any? {
        switch function {
        case .sum: return try CollectionOperator.sum(values).nsNumber
        case .count: return NSNumber(value: values.count)
        case .mode: return mode(values)
        default: break
        }
        let numbers = try numbers(values, for: function)
        guard !numbers.isEmpty else {
            throw PredicateEvaluationError.invalidOperand("\(function.selector) of an empty collection")
        }
        switch function {
        case .min: return numbers.min { $0.compare($1) == .orderedAscending }?.nsNumber
        case .max: return numbers.max { $0.compare($1) == .orderedAscending }?.nsNumber
        case .average: return NSNumber(value: numbers.reduce(0) { $0 + $1.doubleValue } / Double(numbers.count))
        case .median: return median(numbers)
        default: return standardDeviation(numbers.map(\.doubleValue))
        }
    }

    private static func numbers(_ values: [Any], for function: ExpressionFunction) throws -> [PredicateNumber] {
        try values.map { value in
            guard let number = PredicateNumber(value) else {
                throw PredicateEvaluationError.invalidOperand("\(function.selector) needs numbers, found \(value)")
            }
            return number
        }
    }

    /// The middle value; for an even count, the mean of the middle two (an integer mean when both
    /// are integers).
    private static func median(_ values: [PredicateNumber]) -> Any? {
        let sorted = values.sorted { $0.compare($1) == .orderedAscending }
        let middle = sorted.count / 2
        guard sorted.count.isMultiple(of: 2) else { return sorted[middle].nsNumber }
        if case .integer(let lower) = sorted[middle - 1], case .integer(let upper) = sorted[middle] {
            return NSNumber(value: lower / 2 + upper / 2 + (lower % 2 + upper % 2) / 2)
        }
        return NSNumber(value: (sorted[middle - 1].doubleValue + sorted[middle].doubleValue) / 2)
    }

    /// The most frequent values, in order of first appearance (several when they tie).
    private static func mode(_ values: [Any]) -> [Any] {
        var counts: [PredicateValueKey: Int] = [:]
        for value in values { counts[PredicateValueKey(value), default: 0] += 1 }
        let highest = counts.values.max() ?? 0
        return CollectionElements.distinct(values).filter { counts[PredicateValueKey($0)] == highest }
    }

    /// The population standard deviation.
    private static func standardDeviation(_ values: [Double]) -> Any? {
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
        return NSNumber(value: variance.squareRoot())
    }

    // MARK: Arithmetic

    private static func number(_ value: Any?, for function: ExpressionFunction) throws -> PredicateNumber? {
        guard let value = ValueUnwrapping.nonNull(value) else { return nil }
        guard let number = PredicateNumber(value) else {
            throw PredicateEvaluationError.invalidOperand("\(function.selector) needs numbers, found \(type(of: value)) \(value)")
        }
        return number
    }

    private static func arithmetic(_ function: ExpressionFunction, _ lhs: Any?, _ rhs: Any?) throws -> Any? {
        if let date = ValueUnwrapping.nonNull(lhs) as? Date, [.add, .subtract].contains(function) {
            return try dateArithmetic(function, date, rhs)
        }
        if let date = ValueUnwrapping.nonNull(rhs) as? Date, function == .add {
            return try dateArithmetic(function, date, lhs)
        }
        guard let lhs = try number(lhs, for: function), let rhs = try number(rhs, for: function) else { return nil }
        if function != .power, case .integer(let left) = lhs, case .integer(let right) = rhs, let exact = integerArithmetic(function, left, right) {
            return NSNumber(value: exact)
        }
        let (left, right) = (lhs.doubleValue, rhs.doubleValue)
        let result: Double = switch function {
        case .add: left + right
        case .subtract: left - right
        case .multiply: left * right
        case .divide: left / right
        case .modulus: left.truncatingRemainder(dividingBy: right)
        default: pow(left, right)
        }
        return NSNumber(value: result)
    }

    /// The integer result, or nil when it overflows. Dividing by zero gives 0, as Apple's does.
    private static func integerArithmetic(_ function: ExpressionFunction, _ lhs: Int64, _ rhs: Int64) -> Int64? {
        if (function == .divide || function == .modulus) && rhs == 0 {
            return 0
        }
        let (result, overflow): (Int64, Bool) = switch function {
        case .add: lhs.addingReportingOverflow(rhs)
        case .subtract: lhs.subtractingReportingOverflow(rhs)
        case .multiply: lhs.multipliedReportingOverflow(by: rhs)
        case .divide: lhs.dividedReportingOverflow(by: rhs)
        default: lhs.remainderReportingOverflow(dividingBy: rhs)
        }
        return overflow ? nil : result
    }

    /// A date moved by a number of seconds, or the seconds between two dates.
    private static func dateArithmetic(_ function: ExpressionFunction, _ date: Date, _ other: Any?) throws -> Any? {
        guard let other = ValueUnwrapping.nonNull(other) else { return nil }
        if let otherDate = other as? Date, function == .subtract {
            return NSNumber(value: date.timeIntervalSince(otherDate))
        }
        guard let seconds = PredicateNumber(other)?.doubleValue else {
            throw PredicateEvaluationError.invalidOperand("\(function.selector) of a date needs a number of seconds, found \(type(of: other))")
        }
        let moved = date.timeIntervalSinceReferenceDate + (function == .add ? seconds : -seconds)
        // Foundation traps when it describes a date that is not a finite number of seconds.
        guard moved.isFinite else {
            throw PredicateEvaluationError.invalidOperand("\(function.selector) of a date gives no finite date")
        }
        return Date(timeIntervalSinceReferenceDate: moved)
    }

    private static func unary(_ function: ExpressionFunction, _ value: Any?) throws -> Any? {
        guard let number = try self.number(value, for: function) else { return nil }
        if function == .absoluteValue, case .integer(let integer) = number, integer != .min {
            return NSNumber(value: Swift.abs(integer))
        }
        let x = number.doubleValue
        let result: Double = switch function {
        case .squareRoot: x.squareRoot()
        case .logarithm: log10(x)
        case .naturalLogarithm: log(x)
        case .exponential: exp(x)
        case .floor: x.rounded(.down)
        case .ceiling: x.rounded(.up)
        case .truncate: x.rounded(.towardZero)
        default: Swift.abs(x)
        }
        return NSNumber(value: result)
    }

    private static func bitwise(_ function: ExpressionFunction, _ arguments: [Any?]) throws -> Any? {
        var integers: [Int64] = []
        for argument in arguments {
            guard let number = try self.number(argument, for: function) else { return nil }
            guard let integer = number.exactInteger ?? Int64(exactly: number.doubleValue.rounded(.towardZero)) else {
                throw PredicateEvaluationError.invalidOperand("\(function.selector) needs integers, found \(number.doubleValue)")
            }
            integers.append(integer)
        }
        let result: Int64 = switch function {
        case .bitwiseAnd: integers[0] & integers[1]
        case .bitwiseOr: integers[0] | integers[1]
        case .bitwiseXor: integers[0] ^ integers[1]
        case .leftShift: integers[0] << integers[1]
        case .rightShift: integers[0] >> integers[1]
        default: ~integers[0]
        }
        return NSNumber(value: result)
    }

    // MARK: Strings

    private static func changingCase(_ function: ExpressionFunction, _ value: Any?) throws -> Any? {
        guard let value = ValueUnwrapping.nonNull(value) else { return nil }
        guard let string = value as? String else {
            throw PredicateEvaluationError.invalidOperand("\(function.selector) needs a string, found \(type(of: value))")
        }
        return changedCase(string, toUppercase: function == .uppercase)
    }

    /// `uppercase:` or `lowercase:` of a string, with Unicode's full mappings (`ß` → `SS`); the
    /// SQLite store's `cd_uppercase` and `cd_lowercase` functions call it too.
    static func changedCase(_ string: String, toUppercase: Bool) -> String {
        toUppercase ? string.uppercased() : string.lowercased()
    }
}
