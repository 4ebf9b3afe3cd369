/// Dates as model files write them beside their intervals: `2024-01-31 12:00:00 +0000`, the
/// form Xcode's editor shows.
enum ModelFileDate {
    /// A date in the model file form, or in ISO 8601.
    static func date(from string: String) -> Date? {
        if let date = formatter().date(from: string) { return date }
        return ISO8601DateFormatter().date(from: string)
    }

    /// A date in the model file form, in UTC.
    static func string(from date: Date) -> String {
        formatter().string(from: date)
    }

    /// A new formatter each time: `DateFormatter` is not `Sendable`, and model files hold few dates.
    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        return formatter
    }
}
