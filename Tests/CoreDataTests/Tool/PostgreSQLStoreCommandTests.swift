@testable import CoreData
import CoreDataPostgreSQL
import Testing

/// The tool's commands on a PostgreSQL store, named by its server's URL and its schema
/// (`postgres://…/database?schema=name`), run as a program built with the package's
/// `PostgreSQL` trait, as the test command builds it, against the server `COREDATA_POSTGRESQL_URL`
/// names: inspect, query, history, export and import between schemas, the demo, and stores that
/// are not there.
@Suite(.enabled(if: CtxPostgreSQLServer.toolReachesIt, "Needs COREDATA_POSTGRESQL_URL and the tool built with `--traits PostgreSQL`, as the README's test command builds it"))
struct PostgreSQLStoreCommandTests {
    private static var shelfVersion1: String {
        get throws {
            try #require(Bundle.module.url(forResource: "Shelf", withExtension: "xcdatamodeld")).appendingPathComponent("Shelf.xcdatamodel").path
        }
    }

    /// The tool's name for the store in `schema`.
    private static func argument(schema: String) throws -> String {
        let server = try #require(CtxPostgreSQLServer.url)
        var components = try #require(URLComponents(url: server, resolvingAgainstBaseURL: false))
        components.queryItems = [URLQueryItem(name: "schema", value: schema)]
        return try #require(components.string)
    }

    private static func argument(_ scenario: MigrationScenario) throws -> String {
        try argument(schema: try #require(scenario.storeOptions[NSPostgreSQLSchemaOption] as? String))
    }

    /// A Shelf version 1 store recording history: a writer with two volumes in one transaction,
    /// then a sticker in another.
    private static func writeStore(_ scenario: MigrationScenario) throws {
        let options = scenario.storeOptions.merging([NSPersistentHistoryTrackingKey: true]) { first, _ in first }
        let stack = try SQLiteTestStack(model: try ShelfMigrationTests.shelf("Shelf"), url: scenario.url, options: options, storeType: NSPostgreSQLStoreType)
        defer { stack.close() }
        try stack.context.performAndWait {
            stack.context.transactionAuthor = "importer"
            let writer = ctxInsert("Writer", into: stack.context, ["name": "Le Guin", "country": "US"])
            ctxInsert("Volume", into: stack.context, ["title": "Earthsea", "pages": 200, "writer": writer])
            ctxInsert("Volume", into: stack.context, ["title": "The Dispossessed", "pages": 400, "writer": writer])
            try stack.context.save()
            stack.context.transactionAuthor = "editor"
            ctxInsert("Sticker", into: stack.context, ["text": "sale"])
            try stack.context.save()
        }
    }

    @Test func inspectCountsTheRowsAndHistoryThroughTheModel() throws {
        let scenario = try MigrationScenario("tool-postgresql-inspect", storeType: NSPostgreSQLStoreType)
        defer { scenario.remove() }
        try Self.writeStore(scenario)
        let run = try CoreDataToolRun.run(["inspect", try Self.argument(scenario), "--model", try Self.shelfVersion1, "--json"])
        #expect(run.status == 0, "\(run.errors)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], "\(run.output)")
        #expect(report["type"] as? String == NSPostgreSQLStoreType)
        let schema = try #require(scenario.storeOptions[NSPostgreSQLSchemaOption] as? String)
        #expect((report["path"] as? String)?.hasSuffix(", schema \(schema)") == true)
        #expect((report["model"] as? [String: Any])?["matches"] as? Bool == true)
        let rows = (report["entities"] as? [[String: Any]] ?? []).reduce(into: [String: Int]()) { rows, entity in
            rows[entity["name"] as? String ?? ""] = entity["rows"] as? Int
        }
        #expect(rows["Writer"] == 1)
        #expect(rows["Volume"] == 2)
        #expect(rows["Sticker"] == 1)
        #expect((report["history"] as? [String: Any])?["transactions"] as? Int == 2)
        #expect((report["history"] as? [String: Any])?["changes"] as? Int == 4)
        #expect((report["files"] as? [Any])?.isEmpty == true)
    }

    @Test func queryAndHistoryReadTheStore() throws {
        let scenario = try MigrationScenario("tool-postgresql-query", storeType: NSPostgreSQLStoreType)
        defer { scenario.remove() }
        try Self.writeStore(scenario)
        let store = try Self.argument(scenario)
        let query = try CoreDataToolRun.run(["query", store, "--model", try Self.shelfVersion1, "--entity", "Volume", "--predicate", "pages > 300", "--keys", "title,pages", "--format", "csv"])
        #expect(query.status == 0, "\(query.errors)")
        #expect(query.output.split(separator: "\n").map(String.init).dropFirst().map { $0.split(separator: ",").dropFirst().joined(separator: ",") } == ["The Dispossessed,400"])
        let history = try CoreDataToolRun.run(["history", store, "--model", try Self.shelfVersion1, "--author", "editor"])
        #expect(history.status == 0, "\(history.errors)")
        #expect(history.output.contains("insert  Sticker"))
        #expect(history.output.hasSuffix("1 transaction\n"))
    }

    @Test func exportThenImportCopiesTheStoreIntoAnotherSchema() throws {
        let scenario = try MigrationScenario("tool-postgresql-transfer", storeType: NSPostgreSQLStoreType)
        defer { scenario.remove() }
        try Self.writeStore(scenario)
        let exported = scenario.directory.file("export")
        let export = try CoreDataToolRun.run(["export", try Self.argument(scenario), "--model", try Self.shelfVersion1, "--to", exported.path])
        #expect(export.status == 0, "\(export.errors)")
        #expect(export.output == "Exported 4 objects of 4 entities to \(exported.path).\n")

        let copy = try MigrationScenario("tool-postgresql-copy", storeType: NSPostgreSQLStoreType)
        defer { copy.remove() }
        let imported = try CoreDataToolRun.run(["import", exported.path, "--model", try Self.shelfVersion1, "--into", try Self.argument(copy)])
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(imported.output.hasPrefix("Imported 4 objects of 4 entities into "))
        #expect(!imported.output.contains("?schema="))
        try copy.read(try ShelfMigrationTests.shelf("Shelf"), options: [:]) { context in
            let volumes = try ctxFetch("Volume", in: context, sortedBy: "title")
            #expect(volumes.map { $0.value(forKey: "title") as? String } == ["Earthsea", "The Dispossessed"])
            #expect(volumes.map { ($0.value(forKey: "writer") as? NSManagedObject)?.value(forKey: "name") as? String } == ["Le Guin", "Le Guin"])
        }
    }

    @Test func theDemoKeepsItsStoreInTheSchemaTheURLNames() throws {
        let schema = "test_demo_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        for round in 0..<2 {
            let run = try CoreDataToolRun.run(["demo", "--store", try Self.argument(schema: schema)])
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.output.hasPrefix("Store: "))
            #expect(run.output.split(separator: "\n").first?.hasSuffix(", schema \(schema)") == true)
            #expect(run.output.contains("Removed the store of a previous run.") == (round == 1))
            #expect(run.output.contains("  1977  Star Wars       8.6     Han Solo, Luke Skywalker"))
        }
    }

    @Test func aSchemaWithNoStoreOrAnUnusableNameIsOneLineOnStandardError() throws {
        let empty = "test_empty_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        for schema in [empty, "no-such schema"] {
            let run = try CoreDataToolRun.run(["inspect", try Self.argument(schema: schema)])
            #expect(run.status == 1)
            #expect(run.output.isEmpty)
            #expect(run.errors.hasPrefix("error: "))
            #expect(run.errors.split(separator: "\n").count == 1, "\(run.errors)")
        }
    }
}

extension CtxPostgreSQLServer {
    /// Whether the tool opens PostgreSQL stores (the package's `PostgreSQL` trait, which the
    /// tests are built with too) and there is a server to open them on.
    static var toolReachesIt: Bool {
        #if PostgreSQL
        url != nil
        #else
        false
        #endif
    }
}
