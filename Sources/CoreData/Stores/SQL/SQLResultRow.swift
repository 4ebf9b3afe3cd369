/// The current row of a query's results, as a database's driver reads its columns (0-based):
/// what the row reader and the value codec decode values from, whichever database it comes from.
package protocol SQLResultRow {
    func isNull(at index: Int32) -> Bool
    func int64(at index: Int32) -> Int64
    func double(at index: Int32) -> Double
    func string(at index: Int32) -> String?
    func data(at index: Int32) -> Data?
    /// The column's value as the database returned it.
    func value(at index: Int32) -> SQLValue
}
