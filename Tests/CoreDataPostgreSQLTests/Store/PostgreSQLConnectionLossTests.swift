@testable import CoreDataPostgreSQL
import Foundation
import Testing

/// A connection the server ends (`pg_terminate_backend`, a restart, the network) costs a store
/// nothing it saved: the next request runs on a new connection, and a save cut short is rolled
/// back whole by the server and throws.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipMessage)))
struct PostgreSQLConnectionLossTests {
    @Test func theNextRequestAfterALostConnectionRunsOnANewOne() throws {
        let stack = try PostgreSQLStack(model: LibraryModel.make())
        let context = stack.newContext()
        try context.performAndWait {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
            book.setValue("Before", forKey: "title")
            try context.save()
        }
        try PostgreSQLTestServer.terminateConnections(ofSchema: stack.schema)
        let titles = try context.performAndWait {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
            book.setValue("After", forKey: "title")
            try context.save()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
            return try context.fetch(request).map { $0.value(forKey: "title") as? String }
        }
        #expect(titles == ["After", "Before"])
    }

    @Test func aFetchWhoseConnectionIsLostRunsAgainOnANewOne() throws {
        let stack = try PostgreSQLStack(model: LibraryModel.make())
        try stack.saveBooks(titled: ["Earthsea"])
        let context = stack.newContext()
        // The first LIKE the server evaluates ends its server process, in the middle of the fetch.
        try PostgreSQLTestServer.administer("CREATE SEQUENCE like_calls", inSchema: stack.schema)
        try PostgreSQLTestServer.administer("""
            CREATE OR REPLACE FUNCTION cd_like(value text, pattern text, options bigint) RETURNS bigint LANGUAGE plpgsql AS $$
            BEGIN
                IF nextval('like_calls') = 1 THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF;
                RETURN CASE WHEN value LIKE replace(pattern, '*', '%') THEN 1 ELSE 0 END;
            END $$;
            """, inSchema: stack.schema)
        let titles = try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.predicate = NSPredicate(format: "title LIKE 'Earth*'")
            return try context.fetch(request).map { $0.value(forKey: "title") as? String }
        }
        #expect(titles == ["Earthsea"])
    }

    @Test func aConnectionLostDuringASaveRollsBackTheWholeSave() throws {
        let stack = try PostgreSQLStack(model: LibraryModel.make())
        let context = stack.newContext()
        let kept = try context.performAndWait {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
            book.setValue("Kept", forKey: "title")
            try context.save()
            return book
        }
        // The server process ends itself in the middle of the save's transaction.
        try PostgreSQLTestServer.administer("""
            CREATE FUNCTION end_connection() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NEW; END $$;
            """, inSchema: stack.schema)
        try PostgreSQLTestServer.administer("CREATE TRIGGER end_connection BEFORE INSERT ON zbook FOR EACH ROW WHEN (NEW.ztitle = 'Poison') EXECUTE FUNCTION end_connection()", inSchema: stack.schema)
        let error = context.performAndWait {
            kept.setValue("Changed", forKey: "title")
            for title in ["New", "Poison"] {
                NSEntityDescription.insertNewObject(forEntityName: "Book", into: context).setValue(title, forKey: "title")
            }
            return #expect(throws: NSError.self) { try context.save() }
        }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(error?.code == NSPersistentStoreSaveError)

        let other = try stack.another().newContext()
        let stored = try other.performAndWait {
            try other.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book")).compactMap { $0.value(forKey: "title") as? String }
        }
        #expect(stored == ["Kept"])

        try PostgreSQLTestServer.administer("DROP TRIGGER end_connection ON zbook", inSchema: stack.schema)
        try context.performAndWait { try context.save() }
        let saved = try other.performAndWait {
            other.reset()
            return try other.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book")).compactMap { $0.value(forKey: "title") as? String }.sorted()
        }
        #expect(saved == ["Changed", "New", "Poison"])
    }
}

/// The connection itself: a transaction whose connection is lost between two statements is over,
/// and the statements that follow fail rather than run outside it on a new connection.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipMessage)))
struct PostgreSQLConnectionTransactionLossTests {
    /// A connection in a new schema with an empty table `ztally`.
    private static func connectionWithTally() throws -> (PostgreSQLConnection, schema: String) {
        let options = PostgreSQLTestServer.newSchemaOptions()
        let schema = try #require(options[NSPostgreSQLSchemaOption] as? String)
        let connection = try PostgreSQLConnection(address: PostgreSQLServerAddress(url: PostgreSQLTestServer.url, options: options))
        try connection.execute("CREATE SCHEMA \(schema)")
        try connection.execute("CREATE TABLE \(schema).ztally (z_pk BIGINT)")
        return (connection, schema)
    }

    @Test func aTransactionLostBetweenTwoStatementsFailsUntilItIsRolledBack() throws {
        let (connection, schema) = try Self.connectionWithTally()
        defer { connection.close() }
        try connection.begin()
        try connection.execute("INSERT INTO \(schema).ztally VALUES (1)")
        try PostgreSQLTestServer.terminateConnections(ofSchema: schema)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(throws: NSError.self) { try connection.execute("INSERT INTO \(schema).ztally VALUES (2)") }
        #expect(throws: NSError.self) { try connection.commit() }
        connection.rollback()
        let count = try connection.scalar("SELECT COUNT(*) FROM \(schema).ztally")
        #expect(count == 0)
    }

    /// A transaction whose `BEGIN`, sent ahead without waiting, went on a connection lost since
    /// starts again on a new one before its first statement: that statement never runs outside
    /// it (and then again inside it).
    @Test func aTransactionWhoseBeginWasLostStartsAgainBeforeItsFirstStatement() throws {
        let (connection, schema) = try Self.connectionWithTally()
        defer { connection.close() }
        try connection.begin()
        try PostgreSQLTestServer.terminateConnections(ofSchema: schema)
        Thread.sleep(forTimeInterval: 0.2)
        try connection.execute("INSERT INTO \(schema).ztally VALUES (1)")
        #expect(try connection.scalar("SELECT COUNT(*) FROM \(schema).ztally") == 1)
        connection.rollback()
        #expect(try connection.scalar("SELECT COUNT(*) FROM \(schema).ztally") == 0)
    }
}
