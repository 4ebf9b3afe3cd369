/// Conversions between Foundation's number classes that keep Apple's results on Linux.

extension NSDecimalNumber {
    /// The decimal value of a number: a double's shortest digits (see `init(shortestDigitsOf:)`).
    convenience init(converting number: NSNumber) {
        if number.isFloatingPointNumber, !(number is NSDecimalNumber) {
            self.init(shortestDigitsOf: number.doubleValue)
        } else {
            self.init(decimal: number.decimalValue)
        }
    }

    /// The decimal with the fewest digits that round-trip a double (12345.6789 stays 12345.6789),
    /// as on Apple platforms: Linux Foundation's `Decimal(Double)` keeps the double's binary
    /// noise. Not-a-number for infinities and NaN, which `Decimal` cannot hold and on which
    /// Foundation's own conversions trap.
    convenience init(shortestDigitsOf double: Double) {
        guard double.isFinite else {
            self.init(decimal: .nan)
            return
        }
        self.init(decimal: Decimal(string: "\(double)", locale: Locale(identifier: "en_US_POSIX")) ?? Decimal(double))
    }
}

extension NSNumber {
    /// The number as a double; for a decimal, the double nearest its digits, which Linux
    /// Foundation's `doubleValue` can miss by a unit in the last place.
    var nearestDoubleValue: Double {
        guard let decimal = self as? NSDecimalNumber else { return doubleValue }
        return Double(decimal.decimalValue.description) ?? doubleValue
    }
}

extension NSNumber {
    /// Whether the number holds a float or a double (as opposed to an integer or a boolean).
    var isFloatingPointNumber: Bool {
        let type = objCType.pointee
        return type == UInt8(ascii: "f") || type == UInt8(ascii: "d")
    }
}
