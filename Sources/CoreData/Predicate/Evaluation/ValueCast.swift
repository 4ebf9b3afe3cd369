/// `CAST(value, "type")` (`castObject:toType:`) to `NSString`, `NSNumber`, `NSDecimalNumber` or
/// `NSDate`. Numbers and dates convert through seconds since 2001-01-01, as
/// `CAST(<seconds>, "NSDate")` in Apple's canonical format shows.
enum ValueCast {
    static func cast(_ value: Any?, to type: Any?) throws -> Any? {
        guard let typeName = type as? String else {
            throw PredicateEvaluationError.invalidOperand("the type of CAST must be a class name string, found \(type.map { "\($0)" } ?? "nil")")
        }
        guard let value = ValueUnwrapping.nonNull(value) else { return nil }
        switch typeName {
        case "NSString", "String":
            return string(from: value)
        case "NSNumber":
            return number(from: value, typeName: typeName)?.nsNumber
        case "NSDecimalNumber":
            if let string = value as? String { return NSDecimalNumber(string: string) }
            return number(from: value, typeName: typeName).map { NSDecimalNumber(string: ConstantFormatter.format($0)) }
        case "NSDate", "Date":
            return try date(from: value)
        default:
            throw PredicateEvaluationError.unsupported("CAST to \(typeName)")
        }
    }

    private static func string(from value: Any) -> String {
        if let string = value as? String { return string }
        if let number = PredicateNumber(value) { return ConstantFormatter.format(number) }
        return String(describing: value)
    }

    /// A string's number: an integer read as C's `strtoll` reads it with base 0 (`0x1A` is hex,
    /// `012` is octal, trailing characters are ignored, as on Apple platforms), or a decimal
    /// number when the string has a fraction or an exponent.
    private static func number(from value: Any, typeName: String) -> PredicateNumber? {
        if let number = PredicateNumber(value) { return number }
        if let date = value as? Date { return .floating(date.timeIntervalSinceReferenceDate) }
        guard let string = (value as? String)?.trimmingCharacters(in: .whitespaces) else { return nil }
        let isHexadecimal = string.lowercased().hasPrefix("0x") || string.lowercased().hasPrefix("-0x")
        if !isHexadecimal, string.contains(where: { ".eE".contains($0) }), let double = Double(string) {
            return .floating(double)
        }
        return .integer(strtoll(string, nil, 0))
    }

    private static func date(from value: Any) throws -> Date {
        if let date = value as? Date { return date }
        if let seconds = PredicateNumber(value)?.doubleValue ?? (value as? String).flatMap(Double.init) {
            // Foundation traps when it describes a date that is not a finite number of seconds.
            guard seconds.isFinite else {
                throw PredicateEvaluationError.invalidOperand("CAST to NSDate needs a finite number of seconds, found \(seconds)")
            }
            return Date(timeIntervalSinceReferenceDate: seconds)
        }
        throw PredicateEvaluationError.invalidOperand("CAST to NSDate needs a number of seconds since 2001-01-01, found \(type(of: value))")
    }
}
