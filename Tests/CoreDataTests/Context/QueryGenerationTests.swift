@testable import CoreData
import Foundation
import Testing

/// Query generations (spec MOC-34): a pinned context reads the stores as they were when it was
/// pinned, until a save, reset or merge moves it to the latest data; on SQLite, and on
/// PostgreSQL when there is a server.
@Suite struct QueryGenerationTests {
    /// A stack whose store holds Alien (1979) and Heat (1995).
    private static func stack(_ storeType: String = NSSQLiteStoreType) throws -> CtxStack {
        let stack = try CtxStack(model: MovieModel.make(), storeType: storeType)
        try stack.context.performAndWait {
            ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            ctxInsert("Movie", into: stack.context, ["title": "Heat", "year": 1995])
            try stack.context.save()
            stack.context.reset()
        }
        return stack
    }

    /// Another context renames Alien's year to 1980 and inserts Ronin.
    private static func changeElsewhere(_ stack: CtxStack) throws {
        let writer = stack.newContext()
        try writer.performAndWait {
            try ctxFetch("Movie", in: writer, "title == 'Alien'")[0].setValue(Int16(1980), forKey: "year")
            ctxInsert("Movie", into: writer, ["title": "Ronin", "year": 1998])
            try writer.save()
        }
    }

    private static func movieCount(_ context: NSManagedObjectContext) throws -> Int {
        try context.performAndWait { try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Movie")) }
    }

    /// Alien's year as a new fault of the context reads it.
    private static func alienYear(_ context: NSManagedObjectContext) throws -> Int? {
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObjectID>(entityName: "Movie")
            request.predicate = NSPredicate(format: "title == 'Alien'")
            request.resultType = .managedObjectIDResultType
            let identifier = try #require(try context.fetch(request).first)
            let alien = context.object(with: identifier)
            context.refresh(alien, mergeChanges: false)
            return alien.value(forKey: "year") as? Int
        }
    }

    private static func pinnedContext(_ stack: CtxStack) throws -> NSManagedObjectContext {
        let context = stack.newContext()
        try context.performAndWait { try context.setQueryGenerationFrom(.current) }
        return context
    }

    @Test func aContextIsUnpinnedUntilItIsPinned() throws {
        let stack = try Self.stack()
        let context = stack.newContext()
        #expect(context.queryGenerationToken == nil)
        try context.performAndWait { try context.setQueryGenerationFrom(.current) }
        #expect(context.queryGenerationToken == NSQueryGenerationToken.current)
        _ = try Self.movieCount(context)
        let token = try #require(context.queryGenerationToken)
        #expect(token != NSQueryGenerationToken.current)
        try context.performAndWait { try context.setQueryGenerationFrom(nil) }
        #expect(context.queryGenerationToken == nil)
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func aPinnedContextDoesNotSeeLaterSaves(_ storeType: String) throws {
        let stack = try Self.stack(storeType)
        let pinned = try Self.pinnedContext(stack)
        #expect(try Self.movieCount(pinned) == 2)
        try Self.changeElsewhere(stack)
        #expect(try Self.movieCount(pinned) == 2)
        #expect(try Self.alienYear(pinned) == 1979)
        #expect(try Self.movieCount(stack.newContext()) == 3)
        #expect(try Self.alienYear(stack.newContext()) == 1980)
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func anotherContextCanShareAGeneration(_ storeType: String) throws {
        let stack = try Self.stack(storeType)
        let pinned = try Self.pinnedContext(stack)
        _ = try Self.movieCount(pinned)
        try Self.changeElsewhere(stack)
        let follower = stack.newContext()
        try follower.performAndWait { try follower.setQueryGenerationFrom(pinned.queryGenerationToken) }
        #expect(follower.queryGenerationToken == pinned.queryGenerationToken)
        #expect(try Self.movieCount(follower) == 2)
        #expect(try Self.alienYear(follower) == 1979)
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func savingResettingAndMergingMoveToTheLatestData(_ storeType: String) throws {
        let stack = try Self.stack(storeType)
        let pinned = try Self.pinnedContext(stack)
        _ = try Self.movieCount(pinned)
        try Self.changeElsewhere(stack)
        try pinned.performAndWait {
            ctxInsert("Movie", into: pinned, ["title": "Brazil", "year": 1985])
            try pinned.save()
        }
        #expect(try Self.movieCount(pinned) == 4)

        let second = try Self.pinnedContext(stack)
        _ = try Self.movieCount(second)
        try Self.changeElsewhere(stack)
        second.performAndWait { second.reset() }
        #expect(second.queryGenerationToken == NSQueryGenerationToken.current)
        #expect(try Self.movieCount(second) == 5)

        let third = try Self.pinnedContext(stack)
        _ = try Self.movieCount(third)
        try Self.changeElsewhere(stack)
        third.performAndWait { NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [:], into: [third]) }
        #expect(try Self.movieCount(third) == 6)
    }

    @Test func aChildContextCannotBePinned() throws {
        let stack = try Self.stack()
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = stack.context
        let error = child.performAndWait { ctxError { try child.setQueryGenerationFrom(.current) } }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(child.queryGenerationToken == nil)
    }

    @Test func aTokenOfAnotherCoordinatorIsRefused() throws {
        let stack = try Self.stack()
        let pinned = try Self.pinnedContext(stack)
        _ = try Self.movieCount(pinned)
        let other = try stack.reopened()
        let error = other.context.performAndWait { ctxError { try other.context.setQueryGenerationFrom(pinned.queryGenerationToken) } }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(other.context.queryGenerationToken == nil)
    }

    @Test func anInMemoryStoreKeepsReadingItsCurrentData() throws {
        let stack = try Self.stack(NSInMemoryStoreType)
        let pinned = try Self.pinnedContext(stack)
        #expect(try Self.movieCount(pinned) == 2)
        try Self.changeElsewhere(stack)
        #expect(try Self.movieCount(pinned) == 3)
    }

    @Test func aStoreOutsideWALModeKeepsReadingItsCurrentData() throws {
        let directory = try CtxTemporaryDirectory()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: MovieModel.make())
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: directory.url.appendingPathComponent("Delete.sqlite"),
                                           options: [NSSQLitePragmasOption: ["journal_mode": "DELETE"]])
        let writer = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        writer.persistentStoreCoordinator = coordinator
        let pinned = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        pinned.persistentStoreCoordinator = coordinator
        try pinned.performAndWait { try pinned.setQueryGenerationFrom(.current) }
        #expect(try Self.movieCount(pinned) == 0)
        try writer.performAndWait {
            ctxInsert("Movie", into: writer, ["title": "Ronin"])
            try writer.save()
        }
        #expect(try Self.movieCount(pinned) == 1)
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func theGenerationEndsWhenNothingUsesIt(_ storeType: String) throws {
        let stack = try Self.stack(storeType)
        let pinned = try Self.pinnedContext(stack)
        _ = try Self.movieCount(pinned)
        weak let generation = pinned.queryGenerationToken?.pin
        #expect(generation != nil)
        try pinned.performAndWait { try pinned.setQueryGenerationFrom(nil) }
        #expect(generation == nil)
        // With the read transaction gone, a checkpoint can move every frame into the database.
        try Self.changeElsewhere(stack)
        #expect(try Self.movieCount(pinned) == 3)
    }
}
