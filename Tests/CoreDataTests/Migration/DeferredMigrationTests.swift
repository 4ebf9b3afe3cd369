@testable import CoreData
import Testing

/// Deferred lightweight migration (`NSPersistentStoreDeferredLightweightMigrationOptionKey`, MIG-11)
/// on the versions of `Shelf.xcdatamodeld`: v1 → v2 removes the `Sticker` entity and
/// `Writer.country`, and turns `Reader.favorite` (a to-one) into a to-many; v2 → v3 adds a fetch
/// index. The migration leaves those drops, and new indexes, for later; the store works before
/// they run, and once they have run it has the schema an immediate migration gives.
@Suite struct DeferredMigrationTests {
    private static var deferred: [AnyHashable: Any] {
        MigrationScenario.lightweight.merging([NSPersistentStoreDeferredLightweightMigrationOptionKey: true]) { $1 }
    }

    private func shelf(_ version: String) throws -> NSManagedObjectModel {
        try ShelfMigrationTests.shelf(version)
    }

    /// A v1 store with two writers (one with a country), two volumes, a reader and a sticker.
    private func writeVersion1(_ label: String) throws -> MigrationScenario {
        let scenario = try MigrationScenario(label)
        try scenario.write(try shelf("Shelf")) { context in
            let tolkien = ctxInsert("Writer", into: context, ["name": "Tolkien", "country": "UK"])
            let le = ctxInsert("Writer", into: context, ["name": "Le Guin"])
            let hobbit = ctxInsert("Volume", into: context, ["title": "The Hobbit", "pages": 310, "writer": tolkien])
            ctxInsert("Volume", into: context, ["title": "Earthsea", "writer": le])
            ctxInsert("Reader", into: context, ["name": "Ann", "favorite": hobbit])
            ctxInsert("Sticker", into: context, ["text": "sale"])
        }
        return scenario
    }

    /// The tables, their columns with types, and the indexes with their columns, of a store file.
    private struct Schema: Equatable {
        let columns: [String: [String: String]]
        let indexes: [String: [String]]

        init(_ url: URL) throws {
            var columns: [String: [String: String]] = [:]
            for table in try RawStoreSQL.tables(url) {
                columns[table] = Dictionary(uniqueKeysWithValues: try RawStoreSQL.columns(url, table).map { ($0.name, $0.type) })
            }
            self.columns = columns
            var indexes: [String: [String]] = [:]
            for index in try RawStoreSQL.indexes(url) {
                indexes[index] = try RawStoreSQL.indexColumns(url, index)
            }
            self.indexes = indexes
        }
    }

    /// What the v2 store holds, read through its model.
    private func contents(_ context: NSManagedObjectContext) throws -> [String] {
        let writers = try ctxFetch("Writer", in: context, sortedBy: "fullName").map { writer in
            "\(writer.value(forKey: "fullName") as? String ?? "?"): \(ctxObjects(writer.value(forKey: "works")).compactMap { $0.value(forKey: "title") as? String }.sorted())"
        }
        let subscribers = try ctxFetch("Subscriber", in: context, sortedBy: "name").map { subscriber in
            "\(subscriber.value(forKey: "name") as? String ?? "?") likes \(ctxObjects(subscriber.value(forKey: "favorites")).compactMap { $0.value(forKey: "title") as? String })"
        }
        return writers + subscribers
    }

    private func hasPendingWork(_ metadata: [String: Any]) -> Bool {
        metadata[NSPersistentStoreDeferredLightweightMigrationOptionKey] as? Bool == true
    }

    @Test func theMigrationLeavesItsCleanupPendingAndTheStoreWorks() throws {
        let scenario = try writeVersion1("deferred-usable")
        defer { scenario.remove() }
        let stack = try scenario.open(try shelf("Shelf 2"), options: Self.deferred)
        defer { stack.close() }
        #expect(hasPendingWork(stack.coordinator.metadata(for: stack.store)))
        #expect(hasPendingWork(try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: scenario.url)))
        #expect(try RawStoreSQL.tables(scenario.url).contains("ZSTICKER"))
        #expect(try RawStoreSQL.columns(scenario.url, "ZWRITER").map(\.name).contains("ZCOUNTRY"))

        try stack.context.performAndWait {
            #expect(try contents(stack.context) == ["Le Guin: [\"Earthsea\"]", "Tolkien: [\"The Hobbit\"]", "Ann likes [\"The Hobbit\"]"])
            let writer = ctxInsert("Writer", into: stack.context, ["fullName": "Ursula", "rank": 2])
            ctxInsert("Volume", into: stack.context, ["title": "Lavinia", "author": writer])
            let tolkien = try #require(try ctxFetch("Writer", in: stack.context, "fullName == 'Tolkien'").first)
            tolkien.setValue(1, forKey: "rank")
            try stack.context.save()
        }
        let reader = NSManagedObjectContext(.privateQueue)
        reader.persistentStoreCoordinator = stack.coordinator
        try reader.performAndWait { () throws in
            #expect(try ctxFetch("Writer", in: reader, "rank > 0", sortedBy: "fullName").compactMap { $0.value(forKey: "fullName") as? String } == ["Tolkien", "Ursula"])
        }
    }

    @Test func finishingGivesTheSchemaAndDataOfAnImmediateMigration() throws {
        let immediate = try writeVersion1("deferred-immediate")
        defer { immediate.remove() }
        let expectedContents = try immediate.read(try shelf("Shelf 2")) { try contents($0) }

        let deferred = try writeVersion1("deferred-finished")
        defer { deferred.remove() }
        let stack = try deferred.open(try shelf("Shelf 2"), options: Self.deferred)
        #expect(try Schema(deferred.url) != Schema(immediate.url))
        try stack.coordinator.finishDeferredLightweightMigration()
        #expect(!hasPendingWork(stack.coordinator.metadata(for: stack.store)))
        #expect(try stack.context.performAndWait { try contents(stack.context) } == expectedContents)
        stack.close()

        #expect(try Schema(deferred.url) == Schema(immediate.url))
        #expect(!hasPendingWork(try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: deferred.url)))
        #expect(try deferred.read(try shelf("Shelf 2")) { try contents($0) } == expectedContents)
    }

    @Test func tasksRunOneAtATimeAndSurviveAReopening() throws {
        let scenario = try writeVersion1("deferred-tasks")
        defer { scenario.remove() }
        try scenario.open(try shelf("Shelf 2"), options: Self.deferred).close()
        let stack = try scenario.open(try shelf("Shelf 2"))
        defer { stack.close() }
        var steps = 0
        while hasPendingWork(stack.coordinator.metadata(for: stack.store)) {
            try stack.coordinator.finishDeferredLightweightMigrationTask()
            steps += 1
            try #require(steps < 20)
        }
        // The sticker table, the country and favorite columns, and the missing indexes.
        #expect(steps == 4)
        #expect(!(try RawStoreSQL.tables(scenario.url).contains("ZSTICKER")))
        #expect(!(try RawStoreSQL.columns(scenario.url, "ZWRITER").map(\.name).contains("ZCOUNTRY")))
        try stack.coordinator.finishDeferredLightweightMigrationTask()
        try stack.coordinator.finishDeferredLightweightMigration()
    }

    @Test func aLaterMigrationFinishesTheCleanupAnEarlierOneLeft() throws {
        let immediate = try writeVersion1("deferred-chain-immediate")
        defer { immediate.remove() }
        try immediate.open(try shelf("Shelf 2")).close()
        try immediate.open(try shelf("Shelf 3")).close()

        let chained = try writeVersion1("deferred-chain")
        defer { chained.remove() }
        try chained.open(try shelf("Shelf 2"), options: Self.deferred).close()
        let stack = try chained.open(try shelf("Shelf 3"))
        #expect(!hasPendingWork(stack.coordinator.metadata(for: stack.store)))
        stack.close()
        #expect(try Schema(chained.url) == Schema(immediate.url))
    }

    @Test func aDeferredMigrationDefersTheNewIndexes() throws {
        let scenario = try writeVersion1("deferred-index")
        defer { scenario.remove() }
        try scenario.open(try shelf("Shelf 2")).close()
        let stack = try scenario.open(try shelf("Shelf 3"), options: Self.deferred)
        defer { stack.close() }
        #expect(!(try RawStoreSQL.indexes(scenario.url).contains("Z_Writer_byFullName")))
        try stack.context.performAndWait { () throws in
            #expect(try ctxFetch("Writer", in: stack.context, "fullName == 'Tolkien'").count == 1)
        }
        try stack.coordinator.finishDeferredLightweightMigration()
        #expect(try RawStoreSQL.indexes(scenario.url).contains("Z_Writer_byFullName"))
    }

    @Test func withoutPendingWorkFinishingDoesNothing() throws {
        let scenario = try writeVersion1("deferred-nothing")
        defer { scenario.remove() }
        let stack = try scenario.open(try shelf("Shelf"))
        defer { stack.close() }
        let before = try Schema(scenario.url)
        try stack.coordinator.finishDeferredLightweightMigration()
        try stack.coordinator.finishDeferredLightweightMigrationTask()
        #expect(try Schema(scenario.url) == before)
        #expect(stack.coordinator.metadata(for: stack.store)[NSPersistentStoreDeferredLightweightMigrationOptionKey] == nil)
    }

    @Test func aStoreClassNamesItsMigrationManagerClass() {
        #expect(ObjectIdentifier(NSPersistentStore.migrationManagerClass()) == ObjectIdentifier(NSMigrationManager.self))
        #expect(ObjectIdentifier(SQLiteStore.migrationManagerClass()) == ObjectIdentifier(NSMigrationManager.self))
    }
}
