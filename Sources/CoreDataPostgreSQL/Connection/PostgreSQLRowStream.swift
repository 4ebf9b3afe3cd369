import Foundation
import PostgresNIO

/// The rows of a query as they arrive: PostgresNIO hands each row to the stream on its event
/// loop, and the thread reading the statement takes them in batches, so that it decodes the
/// first rows while the server still sends the last ones.
// The event loop adds rows and the end, and the reader takes them, both under `condition`.
final class PostgreSQLRowStream: @unchecked Sendable {
    let query: PostgresQuery
    /// When the query was sent, on the uptime clock, for the SQL debug log's time.
    let sentAt = DispatchTime.now().uptimeNanoseconds
    private let condition = NSCondition()
    private var arrived: [PostgresRow] = []
    private var end: Result<PostgresQueryMetadata, any Error>?
    private var readerIsWaiting = false
    private var discardsRows = false

    /// The rows the reader took and has not read yet.
    private var batch: [PostgresRow] = []
    private var batchPosition = 0
    /// How many rows the reader has read.
    private(set) var rowsRead = 0

    /// A reader waiting for rows wakes when this many have arrived, or at the end: waking it for
    /// each row would cost more than the row.
    private static let batchSize = 64

    init(query: PostgresQuery) {
        self.query = query
    }

    // MARK: Event loop

    func receive(_ row: PostgresRow) {
        condition.lock()
        defer { condition.unlock() }
        guard !discardsRows else { return }
        arrived.append(row)
        if readerIsWaiting, arrived.count >= Self.batchSize { condition.signal() }
    }

    func finish(_ end: Result<PostgresQueryMetadata, any Error>) {
        condition.lock()
        defer { condition.unlock() }
        self.end = end
        condition.signal()
    }

    // MARK: Reader

    /// The next row, once it has arrived; nil after the last one.
    ///
    /// - Throws: The query's error, once the rows before it are read.
    func next() throws -> PostgresRow? {
        if batchPosition == batch.count {
            try takeArrivedRows()
            if batch.isEmpty { return nil }
        }
        defer { batchPosition += 1 }
        rowsRead += 1
        return batch[batchPosition]
    }

    /// Waits for the end of the query, dropping the rows not read.
    ///
    /// - Returns: The query's metadata (its count of changed rows).
    /// - Throws: The query's error.
    func finish() throws -> PostgresQueryMetadata {
        condition.lock()
        defer { condition.unlock() }
        discardsRows = true
        arrived = []
        batch = []
        batchPosition = 0
        while end == nil { wait() }
        return try end!.get()
    }

    /// Takes the rows that arrived, waiting for a batch of them or the end; at the end, with no
    /// row left, throws the query's error.
    private func takeArrivedRows() throws {
        condition.lock()
        defer { condition.unlock() }
        while arrived.count < Self.batchSize, end == nil { wait() }
        swap(&batch, &arrived)
        arrived.removeAll(keepingCapacity: true)
        batchPosition = 0
        if batch.isEmpty, case .failure(let error) = end { throw error }
    }

    private func wait() {
        readerIsWaiting = true
        condition.wait()
        readerIsWaiting = false
    }
}
