/// One value read as a row of one column, for decoding a value read by other means.
struct SQLValueRow: SQLResultRow {
    let value: SQLValue

    func isNull(at index: Int32) -> Bool { value == .null }
    func int64(at index: Int32) -> Int64 { value.integerValue }
    func double(at index: Int32) -> Double { value.realValue }
    func string(at index: Int32) -> String? { value.textValue }
    func data(at index: Int32) -> Data? { value.dataValue }
    func value(at index: Int32) -> SQLValue { value }
}
