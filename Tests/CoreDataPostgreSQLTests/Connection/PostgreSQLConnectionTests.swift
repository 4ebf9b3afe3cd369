@testable import CoreDataPostgreSQL
import Foundation
import Testing

/// The synchronous connection's transactions, and statements whose rows arrive as they are read.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipMessage)))
struct PostgreSQLConnectionTests {
    @Test func aReadInsideAnOpenTransactionRunsInItAndLeavesItOpen() throws {
        let connection = try PostgreSQLConnection(address: PostgreSQLServerAddress(url: PostgreSQLTestServer.url, options: nil))
        defer { connection.close() }
        try connection.execute("CREATE TEMP TABLE probe (value BIGINT)")
        try connection.begin()
        try connection.execute("INSERT INTO probe VALUES (1)")
        let seen = try connection.readTransaction { try connection.scalar("SELECT COUNT(*) FROM probe") }
        #expect(seen == 1)
        #expect(connection.isInTransaction)
        connection.rollback()
        #expect(try connection.scalar("SELECT COUNT(*) FROM probe") == 0)
    }

    /// Rows arrive in batches while the statement reads them: every row is read once, in order,
    /// and the statement runs again at the next step.
    @Test func aStatementReadsEveryRowOnceInOrderAndRunsAgainAfterTheLast() throws {
        let connection = try PostgreSQLConnection(address: PostgreSQLServerAddress(url: PostgreSQLTestServer.url, options: nil))
        defer { connection.close() }
        let statement = try connection.statement("SELECT g FROM generate_series(1, ?) AS g")
        statement.bind(.integer(10_000), at: 1)
        for _ in 0..<2 {
            var values: [Int64] = []
            while try statement.step() { values.append(statement.int64(at: 0)) }
            #expect(values == Array(1...10_000))
        }
    }

    /// A statement left after its first rows ends before the connection's next one runs, which
    /// then reads its own rows.
    @Test func aStatementLeftAfterItsFirstRowsEndsBeforeTheNextRuns() throws {
        let connection = try PostgreSQLConnection(address: PostgreSQLServerAddress(url: PostgreSQLTestServer.url, options: nil))
        defer { connection.close() }
        let first = try connection.statement("SELECT g FROM generate_series(1, 100000) AS g")
        #expect(try first.readFirstRow { $0.int64(at: 0) } == 1)
        #expect(try connection.scalar("SELECT 42") == 42)
        #expect(try first.readFirstRow { $0.int64(at: 0) } == 1)
    }

    /// An error the server meets after sending rows reaches the reader after those rows, as the
    /// store's error, and the connection goes on.
    @Test func anErrorAfterSomeRowsComesAfterThem() throws {
        let connection = try PostgreSQLConnection(address: PostgreSQLServerAddress(url: PostgreSQLTestServer.url, options: nil))
        defer { connection.close() }
        let statement = try connection.statement("SELECT 1 / (5000 - g) FROM generate_series(1, 10000) AS g")
        var read = 0
        let error = #expect(throws: NSError.self) {
            while try statement.step() { read += 1 }
        }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(PostgreSQLErrors.sqlState(of: try #require(error)) == "22012")
        #expect(read > 0 && read < 5000)
        #expect(try connection.scalar("SELECT 7") == 7)
    }
}
