/// Prints constants the way `predicateFormat` shows them (spec §5.7).
///
/// Strings are double-quoted with `"` and `\` escaped; numbers print as `NSNumber` describes them
/// on Apple platforms (`24`, `1.5`, Booleans as `1`/`0`); dates print as
/// `CAST(<seconds since 2001>, "NSDate")` with `%f`'s six decimals (`CAST(0.000000, "NSDate")`, as
/// Apple's `NSConstantValueExpression` formats them), except inside a collection, where Apple prints their
/// description; collections print as `{a, b}`; nil as `nil` and `NSNull` as `<null>`.
enum ConstantFormatter {
    /// The text of a constant at the top level of an expression.
    static func format(_ value: Any?) -> String {
        guard let value = ValueUnwrapping.unwrapped(value) else { return "nil" }
        if let date = value as? Date {
            return "CAST(" + String(format: "%f", date.timeIntervalSinceReferenceDate) + ", \"NSDate\")"
        }
        return formatNested(value)
    }

    private static func formatNested(_ value: Any?) -> String {
        guard let value = ValueUnwrapping.unwrapped(value) else { return "nil" }
        if value is NSNull {
            return "<null>"
        }
        if let string = value as? String {
            return quoted(string)
        }
        if let number = PredicateNumber(value) {
            return format(number)
        }
        if let elements = CollectionElements.elements(of: value) {
            return "{" + elements.map(formatNested).joined(separator: ", ") + "}"
        }
        if let date = value as? Date, !date.timeIntervalSinceReferenceDate.isFinite {
            // Foundation traps when it describes such a date.
            return "CAST(\(date.timeIntervalSinceReferenceDate), \"NSDate\")"
        }
        return String(describing: value)
    }

    /// A string in double quotes, with `"` and `\` escaped by a backslash.
    static func quoted(_ string: String) -> String {
        var text = "\""
        for character in string {
            if character == "\"" || character == "\\" {
                text.append("\\")
            }
            text.append(character)
        }
        return text + "\""
    }

    /// Integral values print without a fractional part below 10^16, like `%g` with 17 digits;
    /// other doubles print in their shortest round-tripping form.
    static func format(_ number: PredicateNumber) -> String {
        switch number {
        case .integer(let value):
            return String(value)
        case .floating(let value):
            if value.rounded() == value, abs(value) < 1e16 {
                return String(Int64(value))
            }
            return String(value)
        }
    }
}
