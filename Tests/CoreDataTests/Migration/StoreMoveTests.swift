@testable import CoreData
import Testing

/// `migratePersistentStore(_:to:options:type:)` between SQLite and in-memory stores, and
/// `replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:type:)`.
@Suite struct StoreMoveTests {
    typealias Kit = ModelFixtureKit

    /// Playlists with an ordered to-many of songs.
    private static func model() -> NSManagedObjectModel {
        let playlist = Kit.entity("Playlist", [Kit.attribute("name", .stringAttributeType)])
        let song = Kit.entity("Song", [Kit.attribute("title", .stringAttributeType)])
        let songs = Kit.relationship("songs", to: song, maxCount: 0, ordered: true)
        let playlists = Kit.relationship("playlists", to: playlist, maxCount: 0)
        Kit.inverse(songs, playlists)
        playlist.properties += [songs]
        song.properties += [playlists]
        return Kit.model([playlist, song])
    }

    private static func fill(_ context: NSManagedObjectContext) throws {
        try context.performAndWait {
            let songs = ["c", "a", "b"].map { ctxInsert("Song", into: context, ["title": $0]) }
            ctxInsert("Playlist", into: context, ["name": "Mix", "songs": NSOrderedSet(array: songs)])
            try context.save()
        }
    }

    private static func songTitles(_ coordinator: NSPersistentStoreCoordinator) throws -> [String] {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return try context.performAndWait {
            let playlist = try #require(try ctxFetch("Playlist", in: context).first)
            return ((playlist.value(forKey: "songs") as? NSOrderedSet)?.array ?? []).compactMap { ($0 as? NSManagedObject)?.value(forKey: "title") as? String }
        }
    }

    @Test func aSQLiteStoreMovesToAnotherFileWithItsObjectsAndOrder() throws {
        let directory = try SQLiteScratchDirectory("move")
        defer { directory.remove() }
        let model = Self.model()
        let stack = try SQLiteTestStack(model: model, url: directory.file("Old.sqlite"))
        defer { stack.close() }
        try Self.fill(stack.context)
        let moved = try stack.coordinator.migratePersistentStore(stack.store, to: directory.file("New.sqlite"), options: nil, type: .sqlite)
        #expect(stack.coordinator.persistentStores.map { $0 === moved } == [true])
        #expect(moved.url?.lastPathComponent == "New.sqlite")
        #expect(try Self.songTitles(stack.coordinator) == ["c", "a", "b"])
        let old = NSPersistentStoreCoordinator(managedObjectModel: model)
        try old.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: directory.file("Old.sqlite"))
        #expect(try Self.songTitles(old) == ["c", "a", "b"], "the old file keeps its objects")
    }

    @Test func storesMoveBetweenSQLiteAndMemory() throws {
        let directory = try SQLiteScratchDirectory("move-memory")
        defer { directory.remove() }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        let memory = try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try Self.fill(context)
        let file = try coordinator.migratePersistentStore(memory, to: directory.file("Saved.sqlite"), options: nil, type: .sqlite)
        #expect(file.type == NSSQLiteStoreType)
        #expect(try Self.songTitles(coordinator) == ["c", "a", "b"])
        let back = try coordinator.migratePersistentStore(file, to: URL(string: "memory://again")!, options: nil, type: .inMemory)
        #expect(back.type == NSInMemoryStoreType)
        #expect(coordinator.persistentStores.count == 1)
        #expect(try Self.songTitles(coordinator) == ["c", "a", "b"])
    }

    @Test func aMoveOntoAnExistingStoreIsRefusedAndKeepsTheOldStore() throws {
        let directory = try SQLiteScratchDirectory("move-taken")
        defer { directory.remove() }
        let model = Self.model()
        try SQLiteTestStack(model: model, url: directory.file("Taken.sqlite")).close()
        let stack = try SQLiteTestStack(model: model, url: directory.file("Old.sqlite"))
        defer { stack.close() }
        try Self.fill(stack.context)
        #expect(throws: (any Error).self) {
            try stack.coordinator.migratePersistentStore(stack.store, to: directory.file("Taken.sqlite"), options: nil, type: .sqlite)
        }
        #expect(stack.coordinator.persistentStores.map { $0 === stack.store } == [true])
        #expect(try Self.songTitles(stack.coordinator) == ["c", "a", "b"])
    }

    @Test func replacingAStoreCopiesTheSourceWithItsUUID() throws {
        let directory = try SQLiteScratchDirectory("replace")
        defer { directory.remove() }
        let model = Self.model()
        let source = try SQLiteTestStack(model: model, url: directory.file("Backup.sqlite"))
        try Self.fill(source.context)
        let sourceUUID = source.store.identifier
        let target = try SQLiteTestStack(model: model, url: directory.file("Live.sqlite"))
        target.close()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.replacePersistentStore(at: directory.file("Live.sqlite"), withPersistentStoreFrom: directory.file("Backup.sqlite"), type: .sqlite)
        source.close()
        let live = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: directory.file("Live.sqlite"))
        #expect(live.identifier == sourceUUID)
        #expect(try Self.songTitles(coordinator) == ["c", "a", "b"])
        let error = #expect(throws: NSError.self) {
            try coordinator.replacePersistentStore(at: directory.file("Live.sqlite"), withPersistentStoreFrom: directory.file("Backup.sqlite"), type: .sqlite)
        }
        #expect(error?.code == NSPersistentStoreOperationError)
    }

    @Test func replacingWithSomethingThatIsNotAStoreLeavesTheDestination() throws {
        let directory = try SQLiteScratchDirectory("replace-bad")
        defer { directory.remove() }
        try SQLiteTestStack(model: Self.model(), url: directory.file("Live.sqlite")).close()
        try Data("not a database".utf8).write(to: directory.file("Junk.sqlite"))
        let before = StoreFileProbe.bytes(directory.file("Live.sqlite"))
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        let error = #expect(throws: NSError.self) {
            try coordinator.replacePersistentStore(at: directory.file("Live.sqlite"), withPersistentStoreFrom: directory.file("Junk.sqlite"), type: .sqlite)
        }
        #expect(error?.code == NSPersistentStoreInvalidTypeError || error?.code == 134080)
        #expect(StoreFileProbe.bytes(directory.file("Live.sqlite")) == before)
    }

    @Test func aMoveReadsRelationshipsWithAQueryPerRelationshipNotPerObject() throws {
        let directory = try SQLiteScratchDirectory("move-queries")
        defer { directory.remove() }
        let stack = try SQLiteTestStack(model: Self.model(), url: directory.file("Old.sqlite"))
        defer { stack.close() }
        try stack.context.performAndWait {
            for index in 0..<30 {
                let songs = (0..<3).map { ctxInsert("Song", into: stack.context, ["title": "\(index)-\($0)"]) }
                ctxInsert("Playlist", into: stack.context, ["name": "P\(index)", "songs": NSOrderedSet(array: songs)])
            }
            try stack.context.save()
        }
        let store = try #require(stack.store as? SQLiteStore)
        var statements = 0
        store.statementObserver = { _ in statements += 1 }
        _ = try stack.coordinator.migratePersistentStore(stack.store, to: directory.file("New.sqlite"), options: nil, type: .sqlite)
        #expect(statements < 30, "\(statements) statements for 30 playlists and 90 songs")
    }
}
