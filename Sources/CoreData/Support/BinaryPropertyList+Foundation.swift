// Conversions between property-list values and Foundation objects, so that store metadata is
// read with the checked reader (a damaged metadata blob throws instead of crashing) and written
// only when every value is a property-list type.
extension BinaryPropertyList.Value {
    /// The value of a Foundation property-list object: strings, numbers, booleans, dates, data,
    /// arrays and string-keyed dictionaries of them.
    ///
    /// - Throws: an error naming the first value that is not a property-list type.
    init(propertyList object: Any) throws {
        switch object {
        case let string as String: self = .string(string)
        case let number as NSNumber: self = .number(number)
        case let date as Date: self = .date(date)
        case let data as Data: self = .data(data)
        case let array as [Any]: self = .array(try array.map(Self.init(propertyList:)))
        case let dictionary as [String: Any]: self = .dictionary(try dictionary.mapValues(Self.init(propertyList:)))
        case let dictionary as NSDictionary:
            var values: [String: Self] = [:]
            for (key, value) in dictionary {
                guard let key = key as? String else { throw Self.notAPropertyList(dictionary) }
                values[key] = try Self(propertyList: value)
            }
            self = .dictionary(values)
        default:
            throw Self.notAPropertyList(object)
        }
    }

    /// The Foundation object of the value (a reference becomes its index as a number).
    var propertyListObject: Any {
        switch self {
        case .string(let string): return string
        case .number(let number): return number
        case .date(let date): return date
        case .data(let data): return data
        case .reference(let index): return NSNumber(value: index)
        case .array(let array): return array.map(\.propertyListObject)
        case .dictionary(let dictionary): return dictionary.mapValues(\.propertyListObject)
        }
    }

    private static func notAPropertyList(_ object: Any) -> NSError {
        CoreDataError.make(NSPropertyListWriteInvalidError, "\(type(of: object)) is not a property-list type, so it cannot be stored in metadata.")
    }
}
