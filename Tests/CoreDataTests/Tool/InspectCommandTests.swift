@testable import CoreData
import Testing

/// `coredata inspect`, run as a program: an Apple-written store and the model found beside it,
/// our own store's history and external data as JSON, a model that does not match, a binary
/// store counted through its model, and input that is no store.
@Suite struct InspectCommandTests {
    /// The report `--json` prints.
    private struct Report: Decodable {
        struct Entity: Decodable {
            let name: String
            let rows: Int?
        }

        struct ModelMatch: Decodable {
            let matches: Bool
            let differingEntities: [String]
        }

        struct History: Decodable {
            let transactions: Int
            let changes: Int
        }

        struct ExternalData: Decodable {
            let files: Int
        }

        let type: String
        let uuid: String?
        let entities: [Entity]
        let model: ModelMatch?
        let history: History?
        let externalData: ExternalData?
    }

    private static func inspect(_ arguments: [String]) throws -> (ProgramRun, Report?) {
        let run = try CoreDataToolRun.run(["inspect", "--json"] + arguments)
        return (run, try? JSONDecoder().decode(Report.self, from: Data(run.output.utf8)))
    }

    private static var shelf: URL {
        get throws {
            try #require(Bundle.module.url(forResource: "Shelf", withExtension: "xcdatamodeld"))
        }
    }

    @Test func anAppleWrittenStoreShowsItsEntitiesAndTheModelBesideIt() throws {
        let directory = try SQLiteScratchDirectory("inspect-apple")
        defer { directory.remove() }
        let fixtures = try #require(Bundle.module.url(forResource: "AppleStores", withExtension: nil))
        for name in ["Bookmarks_V5.sqlite", "Bookmarks_V5.sqlite-wal", "BookmarksModel 5.xcdatamodel"] {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: directory.file(name))
        }
        let run = try CoreDataToolRun.run(["inspect", directory.file("Bookmarks_V5.sqlite").path])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("Type      SQLite"))
        #expect(run.output.contains("UUID      729EA06D-F512-407C-A56C-326316BFB40E"))
        #expect(run.output.contains("BookmarksModel 5.xcdatamodel (BookmarksModel 5) matches"))
        #expect(run.output.contains("BookmarkEntity  10    hPB8BH05EI1mbfnQivcosxlzg72mmP6/O5CZfbT9WSk="))
        #expect(run.output.contains("History   not recorded"))
    }

    @Test func ourStoreReportsItsRowsHistoryAndExternalDataAsJSON() throws {
        let scenario = try MigrationScenario("inspect-ours")
        defer { scenario.remove() }
        let model = try ShelfMigrationTests.shelf("Shelf")
        let stack = try SQLiteTestStack(model: model, url: scenario.url, options: [NSPersistentHistoryTrackingKey: true])
        try stack.context.performAndWait {
            let writer = ctxInsert("Writer", into: stack.context, ["name": "Le Guin", "country": "US"])
            for title in ["Earthsea", "The Dispossessed"] {
                ctxInsert("Volume", into: stack.context, ["title": title, "pages": 300, "writer": writer])
            }
            try stack.context.save()
            ctxInsert("Sticker", into: stack.context, ["text": "sale"])
            try stack.context.save()
        }
        stack.close()
        let (run, report) = try Self.inspect([scenario.url.path, "--model", try Self.shelf.path])
        #expect(run.status == 0, "\(run.errors)")
        let parsed = try #require(report, "\(run.output)\(run.errors)")
        #expect(parsed.type == NSSQLiteStoreType)
        #expect(parsed.uuid != nil)
        let rows = Dictionary(uniqueKeysWithValues: parsed.entities.map { ($0.name, $0.rows) })
        #expect(rows["Writer"] == 1)
        #expect(rows["Volume"] == 2)
        #expect(rows["Sticker"] == 1)
        #expect(parsed.history?.transactions == 2)
        #expect(parsed.history?.changes == 4)
        #expect(parsed.externalData?.files == 0)
        // The model's current version is not the store's.
        #expect(parsed.model?.matches == false)
        #expect(parsed.model?.differingEntities.contains("Sticker") == true)
    }

    @Test func aBinaryStoreIsCountedThroughItsModel() throws {
        let scenario = try MigrationScenario("inspect-binary")
        defer { scenario.remove() }
        let version = try Self.shelf.appendingPathComponent("Shelf.xcdatamodel")
        let stack = try SQLiteTestStack(model: try ShelfMigrationTests.shelf("Shelf"), url: scenario.directory.file("Shelf.binary"), storeType: NSBinaryStoreType)
        try stack.context.performAndWait {
            ctxInsert("Sticker", into: stack.context, ["text": "sale"])
            try stack.context.save()
        }
        stack.close()
        let (run, report) = try Self.inspect([scenario.directory.file("Shelf.binary").path, "--model", version.path])
        #expect(run.status == 0, "\(run.errors)")
        let parsed = try #require(report)
        #expect(parsed.type == NSBinaryStoreType)
        #expect(parsed.model?.matches == true)
        #expect(parsed.entities.first { $0.name == "Sticker" }?.rows == 1)
    }

    @Test func inputThatIsNoStoreIsOneLineOnStandardError() throws {
        let directory = try SQLiteScratchDirectory("inspect-bad")
        defer { directory.remove() }
        let text = directory.file("notes.txt")
        try Data("not a store".utf8).write(to: text)
        for arguments in [[directory.file("missing.sqlite").path], [text.path], [text.path, "--model", directory.file("none.xcdatamodeld").path]] {
            let run = try CoreDataToolRun.run(["inspect"] + arguments)
            #expect(run.status == 1)
            #expect(run.output.isEmpty)
            #expect(run.errors.hasPrefix("error: "))
            #expect(run.errors.filter { $0 == "\n" }.count == 1, "\(run.errors)")
        }
    }
}
