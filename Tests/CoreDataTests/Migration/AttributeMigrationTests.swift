@testable import CoreData
import Testing

/// Lightweight migration of attribute changes, on real stores (`spec/semantics.md` MIG-8).
@Suite struct AttributeMigrationTests {
    typealias Models = MigrationModels

    private func v1() -> NSManagedObjectModel {
        Models.book([Models.attribute("title", .stringAttributeType), Models.attribute("pages", .integer16AttributeType)])
    }

    private func writeBooks(_ scenario: MigrationScenario, titles: [String?], pages: [Int?]? = nil) throws {
        try scenario.write(v1()) { context in
            for (index, title) in titles.enumerated() {
                let book = ctxInsert("Book", into: context)
                book.setValue(title, forKey: "title")
                book.setValue(pages?[index].map { NSNumber(value: $0) }, forKey: "pages")
            }
        }
    }

    private func migrationError(_ scenario: MigrationScenario, to destination: NSManagedObjectModel) -> NSError? {
        do {
            try scenario.migrate(from: v1(), to: destination)
            return nil
        } catch {
            return error as NSError
        }
    }

    private func titles(_ books: [NSManagedObject], _ key: String = "title") -> [String?] {
        books.map { $0.value(forKey: key) as? String }
    }

    @Test func addingAnOptionalAttributeKeepsTheRowsAndLeavesItNil() throws {
        let scenario = try MigrationScenario("add")
        defer { scenario.remove() }
        try writeBooks(scenario, titles: ["A", "B"])
        let v2 = Models.book([Models.attribute("title", .stringAttributeType), Models.attribute("pages", .integer16AttributeType), Models.attribute("isbn", .stringAttributeType)])
        try scenario.migrate(from: v1(), to: v2)
        let books = try scenario.read(v2) { try ctxFetch("Book", in: $0, sortedBy: "title").map { ($0.value(forKey: "title") as? String, $0.value(forKey: "isbn")) } }
        #expect(books.map(\.0) == ["A", "B"])
        #expect(books.allSatisfy { $0.1 == nil })
        #expect(try RawStoreSQL.columns(scenario.url, "ZBOOK").map(\.name).contains("ZISBN"))
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: scenario.url)
        #expect(v2.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
    }

    /// The migration's commit stays in the write-ahead log until the store's own connection
    /// checkpoints it: the checks that precede opening do not rewrite and sync the database file,
    /// which on a large store costs more than the migration itself.
    @Test func openingAMigratedStoreLeavesTheDatabaseFileToTheStoresConnection() throws {
        let scenario = try MigrationScenario("add-log")
        defer { scenario.remove() }
        try writeBooks(scenario, titles: ["A"])
        let v2 = Models.book([Models.attribute("title", .stringAttributeType), Models.attribute("pages", .integer16AttributeType), Models.attribute("isbn", .stringAttributeType)])
        try scenario.migrate(from: v1(), to: v2)
        #expect(FileManager.default.fileExists(atPath: scenario.url.path + "-wal"), "the migration's commit is in the log")
        let fileAfterMigration = try Data(contentsOf: scenario.url)
        let stack = try scenario.open(v2)
        defer { stack.close() }
        #expect(try Data(contentsOf: scenario.url) == fileAfterMigration)
        let books = try stack.context.performAndWait { try ctxFetch("Book", in: stack.context) }
        #expect(titles(books) == ["A"])
    }

    @Test func addingAMandatoryAttributeWithADefaultFillsTheDefault() throws {
        let scenario = try MigrationScenario("add-default")
        defer { scenario.remove() }
        try writeBooks(scenario, titles: ["A", "B"])
        let v2 = Models.book([
            Models.attribute("title", .stringAttributeType), Models.attribute("pages", .integer16AttributeType),
            Models.attribute("edition", .integer32AttributeType, optional: false, defaultValue: 1),
        ])
        try scenario.migrate(from: v1(), to: v2)
        let editions = try scenario.read(v2) { try ctxFetch("Book", in: $0).map { $0.value(forKey: "edition") as? Int } }
        #expect(editions == [1, 1])
    }

    @Test func removingAnAttributeDropsItsColumnAndKeepsTheOthers() throws {
        let scenario = try MigrationScenario("remove")
        defer { scenario.remove() }
        try writeBooks(scenario, titles: ["A", "B"], pages: [10, 20])
        let v2 = Models.book([Models.attribute("pages", .integer16AttributeType)])
        try scenario.migrate(from: v1(), to: v2)
        let pages = try scenario.read(v2) { try ctxFetch("Book", in: $0, sortedBy: "pages").map { $0.value(forKey: "pages") as? Int } }
        #expect(pages == [10, 20])
        #expect(!(try RawStoreSQL.columns(scenario.url, "ZBOOK").map(\.name).contains("ZTITLE")))
    }

    @Test func renamingAnAttributeThroughItsRenamingIdentifierMovesTheValues() throws {
        let scenario = try MigrationScenario("rename")
        defer { scenario.remove() }
        try writeBooks(scenario, titles: ["A", nil, "C"])
        let v2 = Models.book([Models.attribute("name", .stringAttributeType, renamedFrom: "title"), Models.attribute("pages", .integer16AttributeType)])
        try scenario.migrate(from: v1(), to: v2)
        let names = try scenario.read(v2) { try ctxFetch("Book", in: $0).map { $0.value(forKey: "name") as? String } }
        #expect(Set(names.map { $0 ?? "-" }) == ["A", "-", "C"])
        #expect(try RawStoreSQL.columns(scenario.url, "ZBOOK").map(\.name).contains("ZNAME"))
    }

    @Test func anAttributeThatBecomesMandatoryTakesItsDefaultWhereItWasNil() throws {
        let scenario = try MigrationScenario("mandatory")
        defer { scenario.remove() }
        try writeBooks(scenario, titles: ["A", nil])
        let v2 = Models.book([Models.attribute("title", .stringAttributeType, optional: false, defaultValue: "Untitled"), Models.attribute("pages", .integer16AttributeType)])
        try scenario.migrate(from: v1(), to: v2)
        let titles: [String?] = try scenario.read(v2) { self.titles(try ctxFetch("Book", in: $0, sortedBy: "title")) }
        #expect(titles == ["A", "Untitled"])
    }

    @Test func anAttributeThatBecomesMandatoryWithoutADefaultFailsAndLeavesTheStoreIntact() throws {
        let scenario = try MigrationScenario("mandatory-nil")
        defer { scenario.remove() }
        try writeBooks(scenario, titles: ["A", nil])
        let v2 = Models.book([Models.attribute("title", .stringAttributeType, optional: false), Models.attribute("pages", .integer16AttributeType)])
        let error = try #require(migrationError(scenario, to: v2))
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSMigrationError)
        #expect((error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == NSValidationMissingMandatoryPropertyError)
        let titles: [String?] = try scenario.read(v1(), options: [:]) { self.titles(try ctxFetch("Book", in: $0, sortedBy: "title")) }
        #expect(titles == [nil, "A"] || titles == ["A", nil])
    }

    @Test func numericTypeChangesConvertTheStoredValues() throws {
        let scenario = try MigrationScenario("types")
        defer { scenario.remove() }
        try writeBooks(scenario, titles: ["A", "B"], pages: [10, 21])
        let v2 = Models.book([Models.attribute("title", .stringAttributeType), Models.attribute("pages", .doubleAttributeType)])
        try scenario.migrate(from: v1(), to: v2)
        let pages = try scenario.read(v2) { try ctxFetch("Book", in: $0, sortedBy: "title").map { $0.value(forKey: "pages") as? Double } }
        #expect(pages == [10.0, 21.0])
        #expect(try RawStoreSQL.value(scenario.url, "SELECT typeof(ZPAGES) FROM ZBOOK LIMIT 1") == .text("real"))
    }

    @Test func integerWideningKeepsTheColumn() throws {
        let scenario = try MigrationScenario("widen")
        defer { scenario.remove() }
        try writeBooks(scenario, titles: ["A"], pages: [300])
        let v2 = Models.book([Models.attribute("title", .stringAttributeType), Models.attribute("pages", .integer64AttributeType)])
        try scenario.migrate(from: v1(), to: v2)
        let pages = try scenario.read(v2) { try ctxFetch("Book", in: $0).map { $0.value(forKey: "pages") as? Int64 } }
        #expect(pages == [300])
    }

    @Test func aTypeChangeWithoutConversionCannotBeInferred() throws {
        let scenario = try MigrationScenario("no-conversion")
        defer { scenario.remove() }
        try writeBooks(scenario, titles: ["A"], pages: [3])
        let v2 = Models.book([Models.attribute("title", .stringAttributeType), Models.attribute("pages", .stringAttributeType)])
        let error = try #require(migrationError(scenario, to: v2))
        #expect(error.code == NSInferredMappingModelError)
        #expect(try scenario.read(v1(), options: [:]) { try ctxFetch("Book", in: $0).count } == 1)
    }

    @Test func anIncompatibleStoreIsRefusedWith134100WithoutMigrationAnd134130WithoutItsModel() throws {
        let scenario = try MigrationScenario("no-options")
        defer { scenario.remove() }
        try writeBooks(scenario, titles: ["A"])
        let v2 = Models.book([Models.attribute("title", .stringAttributeType)])
        let before = StoreFileProbe.bytes(scenario.url)
        #expect(scenario.openingError(v2, options: [:])?.code == NSPersistentStoreIncompatibleVersionHashError)
        #expect(scenario.openingError(v2, options: MigrationScenario.lightweight)?.code == NSMigrationMissingSourceModelError)
        #expect(StoreFileProbe.bytes(scenario.url) == before)
    }
}
