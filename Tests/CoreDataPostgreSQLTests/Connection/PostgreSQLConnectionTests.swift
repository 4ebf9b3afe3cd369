@testable import CoreDataPostgreSQL
import Foundation
import Testing

/// The synchronous connection's transactions.
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
}
