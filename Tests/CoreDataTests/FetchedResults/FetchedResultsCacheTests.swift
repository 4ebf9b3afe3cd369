@testable import CoreData
import Foundation
import Testing

/// The controller's on-disk cache (spec FRC-16 to FRC-19): sections reused while the request and
/// the store files are unchanged, recomputed otherwise, and the same results either way.
@Suite struct FetchedResultsCacheTests {
    private static func stack() throws -> CtxStack {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            for (title, year) in [("Alien", 1979), ("Blade Runner", 1982), ("Brazil", 1985), ("Heat", 1995), ("Ronin", 1998), ("Ran", 1985)] {
                ctxInsert("Movie", into: stack.context, ["title": title, "year": year])
            }
            try stack.context.save()
        }
        return stack
    }

    /// Fetches with a new context and controller; returns the sections and whether the sections
    /// were counted by a query.
    private static func fetch(_ stack: CtxStack, cacheName: String?) throws -> (sections: [String], sizes: [Int], counted: Bool) {
        let context = stack.newContext()
        return try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: true), NSSortDescriptor(key: "title", ascending: true)]
            request.fetchBatchSize = 2
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "year", cacheName: cacheName)
            let statements = try ctxStatements(in: stack) { try controller.performFetch() }
            let sections = controller.sections ?? []
            return (sections.map(\.name), sections.map(\.numberOfObjects), statements.contains { $0.contains("GROUP BY") })
        }
    }

    @Test func aCacheIsReusedUntilTheStoreChanges() throws {
        let stack = try Self.stack()
        let name = "FetchedResultsCacheTests-\(UUID().uuidString)"
        defer { NSFetchedResultsController<NSManagedObject>.deleteCache(withName: name) }

        let uncached = try Self.fetch(stack, cacheName: nil)
        #expect(uncached.sections == ["1979", "1982", "1985", "1995", "1998"])
        #expect(uncached.sizes == [1, 1, 2, 1, 1])
        let first = try Self.fetch(stack, cacheName: name)
        #expect(first.counted)
        #expect(FileManager.default.fileExists(atPath: FetchedResultsCache.file(named: name).path))
        let second = try Self.fetch(stack, cacheName: name)
        #expect(!second.counted, "the cache answers")
        #expect(second.sections == uncached.sections && second.sizes == uncached.sizes)

        try stack.context.performAndWait {
            ctxInsert("Movie", into: stack.context, ["title": "Arrival", "year": 2016])
            try stack.context.save()
        }
        let afterSave = try Self.fetch(stack, cacheName: name)
        #expect(afterSave.counted, "the store changed: the cache is recomputed")
        #expect(afterSave.sections.last == "2016")

        NSFetchedResultsController<NSManagedObject>.deleteCache(withName: name)
        #expect(!FileManager.default.fileExists(atPath: FetchedResultsCache.file(named: name).path))
        #expect(try Self.fetch(stack, cacheName: name).counted)
    }

    @Test func aCacheOfAnotherRequestIsNotUsed() throws {
        let stack = try Self.stack()
        let name = "FetchedResultsCacheTests-\(UUID().uuidString)"
        defer { NSFetchedResultsController<NSManagedObject>.deleteCache(withName: name) }
        _ = try Self.fetch(stack, cacheName: name)
        let context = stack.newContext()
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: true), NSSortDescriptor(key: "title", ascending: true)]
            request.predicate = NSPredicate(format: "year < 1990")
            request.fetchBatchSize = 2
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "year", cacheName: name)
            try controller.performFetch()
            #expect(controller.sections?.map(\.name) == ["1979", "1982", "1985"])
        }
    }
}
