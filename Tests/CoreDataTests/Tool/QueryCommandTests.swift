@testable import CoreData
import Testing

/// `coredata query`, run as a program: predicates, sorting, limits and keys through Core Data's
/// API, relationships by URI, the three output formats, and refused input (a malformed
/// predicate with its position, an unknown entity or key, a model that does not match).
@Suite struct QueryCommandTests {
    private static var shelf: URL {
        get throws {
            try #require(Bundle.module.url(forResource: "Shelf", withExtension: "xcdatamodeld"))
        }
    }

    /// A Shelf version 1 store: one writer, three volumes (one with a comma and quotes in its title).
    private static func writeStore(_ scenario: MigrationScenario) throws {
        try scenario.write(try ShelfMigrationTests.shelf("Shelf")) { context in
            let writer = ctxInsert("Writer", into: context, ["name": "Le Guin", "country": "US"])
            ctxInsert("Volume", into: context, ["title": "Earthsea", "pages": 200, "writer": writer])
            ctxInsert("Volume", into: context, ["title": "The Dispossessed", "pages": 400, "writer": writer])
            ctxInsert("Volume", into: context, ["title": "Tales, \"lost\"", "pages": 90, "writer": writer])
        }
    }

    private static func query(_ scenario: MigrationScenario, _ arguments: [String]) throws -> ProgramRun {
        try CoreDataToolRun.run(["query", scenario.url.path, "--model", try shelf.path] + arguments)
    }

    @Test func jsonShowsTheMatchingObjectsSortedWithTheirRelationshipsByURI() throws {
        let scenario = try MigrationScenario("query-json")
        defer { scenario.remove() }
        try Self.writeStore(scenario)
        let run = try Self.query(scenario, ["--entity", "Volume", "--predicate", "pages >= 100", "--sort", "-pages", "--keys", "title,pages,writer", "--format", "json"])
        #expect(run.status == 0, "\(run.errors)")
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]])
        #expect(objects.map { $0["title"] as? String } == ["The Dispossessed", "Earthsea"])
        #expect(objects.map { $0["pages"] as? Int } == [400, 200])
        let uuid = try #require(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: scenario.url)[NSStoreUUIDKey] as? String)
        #expect(objects.map { $0["writer"] as? String } == Array(repeating: "x-coredata://\(uuid)/Writer/p1", count: 2))
        #expect(objects.allSatisfy { ($0["objectID"] as? String)?.hasPrefix("x-coredata://\(uuid)/Volume/p") == true })
        #expect(objects.allSatisfy { $0.count == 4 })
    }

    @Test func aTableListsToManyRelationshipsAndCountsTheObjects() throws {
        let scenario = try MigrationScenario("query-table")
        defer { scenario.remove() }
        try Self.writeStore(scenario)
        let run = try Self.query(scenario, ["--entity", "Writer", "--keys", "name,volumes"])
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.trimmingCharacters(in: .whitespaces).hasPrefix("objectID") == true)
        #expect(lines.contains { $0.contains("Le Guin") && $0.contains("/Volume/p1 ") && $0.contains("/Volume/p3") })
        #expect(lines.last == "  (1 object)")
    }

    @Test func csvQuotesFieldsAndLimitsTheRows() throws {
        let scenario = try MigrationScenario("query-csv")
        defer { scenario.remove() }
        try Self.writeStore(scenario)
        let run = try Self.query(scenario, ["--entity", "Volume", "--keys", "title,pages", "--sort", "pages", "--limit", "2", "--format", "csv"])
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0] == "objectID,title,pages")
        #expect(lines[1].hasSuffix(",\"Tales, \"\"lost\"\"\",90"))
        #expect(lines[2].hasSuffix(",Earthsea,200"))
    }

    @Test func anAppleWrittenStoreIsQueriedThroughItsModel() throws {
        let directory = try SQLiteScratchDirectory("query-apple")
        defer { directory.remove() }
        let fixtures = try #require(Bundle.module.url(forResource: "AppleStores", withExtension: nil))
        for name in ["Bookmarks_V5.sqlite", "Bookmarks_V5.sqlite-wal", "BookmarksModel 5.xcdatamodel"] {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: directory.file(name))
        }
        let run = try CoreDataToolRun.run([
            "query", directory.file("Bookmarks_V5.sqlite").path, "--model", directory.file("BookmarksModel 5.xcdatamodel").path,
            "--entity", "BookmarkEntity", "--predicate", "isFolder == YES", "--sort", "title", "--keys", "title,isFolder", "--format", "csv",
        ])
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "objectID,title,isFolder")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("x-coredata://729EA06D-F512-407C-A56C-326316BFB40E/BookmarkEntity/p") && $0.hasSuffix(",true") })
        #expect(lines.contains { $0.hasSuffix(",bookmarks_root,true") })
    }

    @Test func refusedInputIsOneLineNamingTheProblem() throws {
        let scenario = try MigrationScenario("query-bad")
        defer { scenario.remove() }
        try Self.writeStore(scenario)
        let cases: [([String], String)] = [
            (["--entity", "Volume", "--predicate", "pages >"], "at character 7"),
            (["--entity", "Book"], "The model has no entity Book"),
            (["--entity", "Volume", "--keys", "title,rank"], "has no property rank"),
            (["--entity", "Volume", "--predicate", "rank == 1"], "rank"),
        ]
        for (arguments, message) in cases {
            let run = try Self.query(scenario, arguments)
            #expect(run.status == 1, "\(arguments)")
            #expect(run.errors.hasPrefix("error: ") && run.errors.contains(message), "\(run.errors)")
            #expect(run.errors.filter { $0 == "\n" }.count == 1)
        }
        let foreign = try MigrationScenario("query-foreign")
        defer { foreign.remove() }
        try foreign.write(MigrationModels.book([MigrationModels.attribute("title", .stringAttributeType)])) { context in
            ctxInsert("Book", into: context, ["title": "A"])
        }
        let run = try CoreDataToolRun.run(["query", foreign.url.path, "--model", try Self.shelf.path, "--entity", "Volume"])
        #expect(run.status == 1)
        #expect(run.errors.contains("No version of"))
    }
}
