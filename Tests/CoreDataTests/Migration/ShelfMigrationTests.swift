@testable import CoreData
import Testing

/// Automatic lightweight migration through the versions of `Shelf.xcdatamodeld`, which the test
/// bundle ships like an app ships its model, on stores with data:
/// - v1 → v2: entity and property renames (Reader → Subscriber, name → fullName, writer → author,
///   volumes → works), a removed attribute and entity, added attributes (one mandatory with a
///   default) and an added entity, Integer 16 → Integer 64, optional → mandatory with a default,
///   to-one → to-many without inverse (a new join table), unordered → ordered;
/// - v2 → v3: a new abstract parent that takes `title` up (the table becomes `ZWORK`), a new
///   sibling entity, renumbered entities, Integer 16 → Double, a new fetch index.
@Suite struct ShelfMigrationTests {
    static func shelf(_ version: String) throws -> NSManagedObjectModel {
        let bundle = try #require(Bundle.module.url(forResource: "Shelf", withExtension: "xcdatamodeld"))
        return try NSManagedObjectModel(validatingContentsOf: bundle.appendingPathComponent("\(version).xcdatamodel"))
    }

    /// Two writers, three volumes, two readers (one with a favorite) and a sticker.
    private func writeVersion1(_ scenario: MigrationScenario) throws {
        try scenario.write(try Self.shelf("Shelf")) { context in
            let tolkien = ctxInsert("Writer", into: context, ["name": "Tolkien", "country": "UK"])
            let le = ctxInsert("Writer", into: context, ["name": "Le Guin"])
            let hobbit = ctxInsert("Volume", into: context, ["title": "The Hobbit", "pages": 310, "isbn": "0261102214", "writer": tolkien])
            ctxInsert("Volume", into: context, ["title": "The Silmarillion", "writer": tolkien])
            ctxInsert("Volume", into: context, ["title": "Earthsea", "pages": 183, "writer": le])
            ctxInsert("Reader", into: context, ["name": "Ann", "favorite": hobbit])
            ctxInsert("Reader", into: context, ["name": "Bob"])
            ctxInsert("Sticker", into: context, ["text": "sale"])
        }
    }

    private func titles(_ objects: Any?) -> [String] {
        let members = (objects as? NSOrderedSet)?.array ?? (objects as? NSSet)?.allObjects ?? []
        return members.compactMap { ($0 as? NSManagedObject)?.value(forKey: "title") as? String }
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func version1OpensWithVersion2(storeType: String) throws {
        let scenario = try MigrationScenario("shelf-2", storeType: storeType)
        defer { scenario.remove() }
        try writeVersion1(scenario)
        try scenario.read(try Self.shelf("Shelf 2")) { context in
            let writers = try ctxFetch("Writer", in: context, sortedBy: "fullName")
            #expect(writers.map { $0.value(forKey: "fullName") as? String } == ["Le Guin", "Tolkien"])
            #expect(writers.map { $0.value(forKey: "rank") as? Int } == [0, 0])
            #expect(Set(titles(writers[1].value(forKey: "works"))) == ["The Hobbit", "The Silmarillion"])
            #expect(writers[1].value(forKey: "works") is NSOrderedSet)

            let volumes = try ctxFetch("Volume", in: context, sortedBy: "title")
            #expect(volumes.map { $0.value(forKey: "isbn") as? String } == ["unknown", "0261102214", "unknown"])
            #expect(volumes.map { ($0.value(forKey: "pages") as? NSNumber)?.int64Value } == [183, 310, 0])
            #expect(volumes.map { ($0.value(forKey: "author") as? NSManagedObject)?.value(forKey: "fullName") as? String } == ["Le Guin", "Tolkien", "Tolkien"])

            let members = try ctxFetch("Subscriber", in: context, sortedBy: "name")
            #expect(members.map { titles($0.value(forKey: "favorites")) } == [["The Hobbit"], []])
            #expect(try ctxFetch("Review", in: context).isEmpty)
        }
        guard storeType == NSSQLiteStoreType else { return }
        let tables = try RawStoreSQL.tables(scenario.url)
        #expect(!tables.contains("ZSTICKER") && !tables.contains("ZREADER"))
        #expect(tables.contains("ZSUBSCRIBER") && tables.contains("ZREVIEW"))
        #expect(!(try RawStoreSQL.columns(scenario.url, "ZWRITER").map(\.name).contains("ZCOUNTRY")))
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func aChainOfMigrationsKeepsTheDataAndTheObjectsStayUsable(storeType: String) throws {
        let scenario = try MigrationScenario("shelf-chain", storeType: storeType)
        defer { scenario.remove() }
        try writeVersion1(scenario)
        try scenario.read(try Self.shelf("Shelf 2")) { context in
            let hobbit = try #require(try ctxFetch("Volume", in: context, "title == 'The Hobbit'").first)
            ctxInsert("Review", into: context, ["stars": 5, "volume": hobbit])
            try context.save()
        }
        try scenario.read(try Self.shelf("Shelf 3")) { context in
            let works = try ctxFetch("Work", in: context, sortedBy: "title")
            #expect(works.map { $0.value(forKey: "title") as? String } == ["Earthsea", "The Hobbit", "The Silmarillion"])
            #expect(works.allSatisfy { $0.entity.name == "Volume" })
            let hobbit = works[1]
            let reviews = (hobbit.value(forKey: "reviews") as? NSSet)?.allObjects as? [NSManagedObject] ?? []
            #expect(reviews.map { $0.value(forKey: "stars") as? Double } == [5.0])
            #expect((hobbit.value(forKey: "author") as? NSManagedObject)?.value(forKey: "fullName") as? String == "Tolkien")

            let pamphlet = ctxInsert("Pamphlet", into: context, ["title": "Leaflet", "folds": 3])
            let sequel = ctxInsert("Volume", into: context, ["title": "The Lord of the Rings", "author": hobbit.value(forKey: "author") as Any])
            try context.save()
            #expect(Set([pamphlet, sequel, hobbit].map(\.objectID)).count == 3)
        }
        guard storeType == NSSQLiteStoreType else { return }
        #expect(try RawStoreSQL.tables(scenario.url).contains("ZWORK"))
        #expect(!(try RawStoreSQL.tables(scenario.url).contains("ZVOLUME")))
        #expect(try RawStoreSQL.indexes(scenario.url).contains("Z_Writer_byFullName"))
        let keys = try RawStoreSQL.rows(scenario.url, "SELECT Z_PK FROM ZWORK ORDER BY Z_PK").map { $0[0] }
        #expect(keys == [.integer(1), .integer(2), .integer(3), .integer(4), .integer(5)])
        let numbers = try RawStoreSQL.rows(scenario.url, "SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY ORDER BY Z_ENT").map { $0[0] }
        #expect(numbers == ["Review", "Subscriber", "Work", "Pamphlet", "Volume", "Writer"].map(SQLValue.text))
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func version1OpensDirectlyWithVersion3(storeType: String) throws {
        let scenario = try MigrationScenario("shelf-3", storeType: storeType)
        defer { scenario.remove() }
        try writeVersion1(scenario)
        try scenario.read(try Self.shelf("Shelf 3")) { context in
            let volumes = try ctxFetch("Volume", in: context, sortedBy: "title")
            #expect(volumes.map { $0.value(forKey: "title") as? String } == ["Earthsea", "The Hobbit", "The Silmarillion"])
            let members = try ctxFetch("Subscriber", in: context, sortedBy: "name")
            #expect(members.map { titles($0.value(forKey: "favorites")) } == [["The Hobbit"], []])
            let writers = try ctxFetch("Writer", in: context, sortedBy: "fullName")
            #expect(writers.map { titles($0.value(forKey: "works")).sorted() } == [["Earthsea"], ["The Hobbit", "The Silmarillion"]])
        }
    }

    @Test func withoutInferenceTheMissingMappingModelIsReported() throws {
        let scenario = try MigrationScenario("shelf-no-infer")
        defer { scenario.remove() }
        try writeVersion1(scenario)
        let before = StoreFileProbe.bytes(scenario.url)
        let error = scenario.openingError(try Self.shelf("Shelf 2"), options: [NSMigratePersistentStoresAutomaticallyOption: true])
        #expect(error?.code == NSMigrationMissingMappingModelError)
        #expect(StoreFileProbe.bytes(scenario.url) == before)
    }

    @Test func readingMetadataLeavesTheFileAsItWas() throws {
        let scenario = try MigrationScenario("shelf-metadata")
        defer { scenario.remove() }
        try writeVersion1(scenario)
        let before = StoreFileProbe.bytes(scenario.url)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: scenario.url)
        #expect(StoreFileProbe.bytes(scenario.url) == before)
        #expect(try Self.shelf("Shelf").isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        #expect(!(try Self.shelf("Shelf 2").isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)))
        #expect(NSManagedObjectModel.mergedModel(from: nil, forStoreMetadata: metadata)?.versionIdentifiers == ["1"])
    }
}
