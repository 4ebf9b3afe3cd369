/// What kind of value an `Any?` is, for comparing values of different Swift and Foundation types.
///
/// Bridged types fall into the same kind as their Swift counterparts: `NSString` is a `.string`,
/// `NSNumber` a `.number`, `NSDate` a `.date`.
enum PredicateValueKind {
    /// nil, an empty optional, or `NSNull`.
    case null
    case number(PredicateNumber)
    case string(String)
    case date(Date)
    case data(Data)
    /// Anything else: objects, collections, dictionaries.
    case other(Any)

    init(_ value: Any?) {
        guard let value = ValueUnwrapping.nonNull(value) else {
            self = .null
            return
        }
        if let string = value as? String {
            self = .string(string)
        } else if let number = PredicateNumber(value) {
            self = .number(number)
        } else if let date = value as? Date {
            self = .date(date)
        } else if let data = value as? Data {
            self = .data(data)
        } else {
            self = .other(value)
        }
    }
}
