/// Why a benchmark could not produce a trustworthy result.
enum BenchmarkError: Error, CustomStringConvertible {
    /// A peer did different work from the others (or from what the workload expects).
    case checksumMismatch(workload: String, peer: String, run: String, expected: Checksum, actual: Checksum)
    /// A peer read a value of an unexpected type or nil.
    case unexpectedValue(peer: String, detail: String)
    /// A SQLite call failed.
    case sqlite(code: Int32, message: String, sql: String?)
    /// The file system refused something.
    case io(String)
    /// The command line is wrong.
    case usage(String)

    var description: String {
        switch self {
        case let .checksumMismatch(workload, peer, run, expected, actual):
            return "\(workload): checksum mismatch for peer \(peer) (\(run)): expected \(expected), got \(actual)"
        case let .unexpectedValue(peer, detail):
            return "peer \(peer): \(detail)"
        case let .sqlite(code, message, sql):
            return "SQLite error \(code): \(message)" + (sql.map { " in `\($0)`" } ?? "")
        case let .io(message):
            return message
        case let .usage(message):
            return message
        }
    }
}
