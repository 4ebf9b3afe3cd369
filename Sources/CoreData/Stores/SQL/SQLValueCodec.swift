/// Conversions between attribute values and their SQLite encodings (`spec/store-format.md` §2.5):
/// dates as seconds since 2001-01-01, UUIDs as 16 bytes, booleans as 0/1, decimals as REAL
/// (read back with the shortest decimal that round-trips the double), URIs as text, and
/// transformable values as their transformer's data.
package enum SQLValueCodec {
    /// The SQL value of an attribute value.
    package static func encode(_ value: Any?, for attribute: NSAttributeDescription) throws -> SQLValue {
        guard attribute.attributeType == .transformableAttributeType else {
            return encode(value, type: attribute.attributeType)
        }
        guard let value, !(value is NSNull) else { return .null }
        return .blob(try TransformableCoding.encode(value, for: attribute))
    }

    /// The SQL value of a value of a simple type (see `isSimple`); other types give NULL.
    static func encode(_ value: Any?, type: NSAttributeType) -> SQLValue {
        guard let value else { return .null }
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            return (value as? NSNumber).map { .integer($0.int64Value) } ?? .null
        case .booleanAttributeType:
            return (value as? NSNumber).map { .integer($0.boolValue ? 1 : 0) } ?? .null
        case .doubleAttributeType, .floatAttributeType, .decimalAttributeType:
            return (value as? NSNumber).map { .real($0.nearestDoubleValue) } ?? .null
        case .stringAttributeType:
            return (value as? String).map(SQLValue.text) ?? .null
        case .URIAttributeType:
            return (value as? URL).map { .text($0.absoluteString) } ?? .null
        case .dateAttributeType:
            return (value as? Date).map { .real($0.timeIntervalSinceReferenceDate) } ?? .null
        case .binaryDataAttributeType:
            return (value as? Data).map(SQLValue.blob) ?? .null
        case .UUIDAttributeType:
            return (value as? UUID).map { uuid in .blob(withUnsafeBytes(of: uuid.uuid) { Data($0) }) } ?? .null
        case .transformableAttributeType, .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType:
            return .null
        }
    }

    /// The SQL value of a slot of a simple type (see `isSimple`), from its word when it has one.
    @inline(__always)
    static func encode(slot: Int, of values: SlotValues, type: NSAttributeType, scalar: StoragePlan.Scalar?) -> SQLValue {
        if let scalar, let bits = values.word(atSlot: slot) { return encode(bits: bits, scalar: scalar) }
        return encode(values[slot], type: type)
    }

    /// The SQL value of a scalar word: as `encode(_:type:)` gives the value the word stands for
    /// (an integer too wide for its attribute is written as it is, and read back truncated).
    @inline(__always)
    static func encode(bits: UInt64, scalar: StoragePlan.Scalar) -> SQLValue {
        switch scalar {
        case .integer16, .integer32, .integer64: return .integer(Int64(bitPattern: bits))
        case .boolean: return .integer(bits == 0 ? 0 : 1)
        case .float, .double, .date: return .real(Double(bitPattern: bits))
        }
    }

    /// The word of a column of a scalar attribute, as `decode(_:at:type:)` reads it (integers
    /// truncated to the attribute's width, floats rounded to `Float`), or nil for NULL.
    @inline(__always)
    static func decodeBits<Row: SQLResultRow>(_ statement: Row, at column: Int32, scalar: StoragePlan.Scalar) -> UInt64? {
        guard !statement.isNull(at: column) else { return nil }
        switch scalar {
        case .integer16: return UInt64(bitPattern: Int64(Int16(truncatingIfNeeded: statement.int64(at: column))))
        case .integer32: return UInt64(bitPattern: Int64(Int32(truncatingIfNeeded: statement.int64(at: column))))
        case .integer64: return UInt64(bitPattern: statement.int64(at: column))
        case .boolean: return statement.int64(at: column) != 0 ? 1 : 0
        case .float: return Double(Float(statement.double(at: column))).bitPattern
        case .double, .date: return statement.double(at: column).bitPattern
        }
    }

    /// Whether values of a type bind without a transformer or other per-attribute settings.
    static func isSimple(_ type: NSAttributeType) -> Bool {
        switch type {
        case .transformableAttributeType, .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType: return false
        default: return true
        }
    }

    /// The attribute value of a column of the current row.
    static func decode<Row: SQLResultRow>(_ statement: Row, at column: Int32, for attribute: NSAttributeDescription) -> Any? {
        guard attribute.attributeType == .transformableAttributeType else {
            return decode(statement, at: column, type: attribute.attributeType)
        }
        return statement.data(at: column).flatMap { TransformableCoding.decode($0, for: attribute) }
    }

    /// The value of a column of a simple attribute type (see `isSimple`).
    @inline(__always)
    static func decode<Row: SQLResultRow>(_ statement: Row, at column: Int32, type: NSAttributeType) -> Any? {
        guard !statement.isNull(at: column) else { return nil }
        switch type {
        case .integer16AttributeType:
            return NSNumber(value: Int16(truncatingIfNeeded: statement.int64(at: column)))
        case .integer32AttributeType:
            return NSNumber(value: Int32(truncatingIfNeeded: statement.int64(at: column)))
        case .integer64AttributeType:
            return NSNumber(value: statement.int64(at: column))
        case .booleanAttributeType:
            return NSNumber(value: statement.int64(at: column) != 0)
        case .doubleAttributeType:
            return NSNumber(value: statement.double(at: column))
        case .floatAttributeType:
            return NSNumber(value: Float(statement.double(at: column)))
        case .decimalAttributeType:
            return NSDecimalNumber(shortestDigitsOf: statement.double(at: column))
        case .stringAttributeType:
            return statement.string(at: column)
        case .URIAttributeType:
            return statement.string(at: column).flatMap(URL.init(string:))
        case .dateAttributeType:
            return Date(timeIntervalSinceReferenceDate: statement.double(at: column))
        case .binaryDataAttributeType:
            return statement.data(at: column)
        case .UUIDAttributeType:
            return statement.data(at: column).flatMap(uuid(from:))
        case .transformableAttributeType, .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType:
            return nil
        }
    }

    /// The value of a column of a simple attribute type, to sort by: integers, doubles, strings
    /// and dates as themselves (which cost no `NSNumber` and compare without casts), other
    /// types (Booleans and floats too, whose `NSNumber`s describe themselves differently) as
    /// `decode` gives them.
    @inline(__always)
    static func sortKeyValue<Row: SQLResultRow>(_ statement: Row, at column: Int32, type: NSAttributeType) -> SortKeyValue {
        guard !statement.isNull(at: column) else { return .null }
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            return .integer(statement.int64(at: column))
        case .doubleAttributeType:
            return .double(statement.double(at: column))
        case .stringAttributeType:
            return statement.string(at: column).map(SortKeyValue.string) ?? .null
        case .dateAttributeType:
            return .date(Date(timeIntervalSinceReferenceDate: statement.double(at: column)))
        default:
            return decode(statement, at: column, type: type).map(SortKeyValue.other) ?? .null
        }
    }

    static func uuid(from data: Data) -> UUID? {
        if data.count == 16 {
            let bytes = [UInt8](data)
            return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        }
        return String(data: data, encoding: .utf8).flatMap(UUID.init(uuidString:))
    }
}
