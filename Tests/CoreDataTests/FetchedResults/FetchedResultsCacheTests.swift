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

    /// Fetches with a new context and controller; returns the section names and sizes.
    private static func fetch(_ stack: CtxStack, cacheName: String?) throws -> (sections: [String], sizes: [Int]) {
        let context = stack.newContext()
        return try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: true), NSSortDescriptor(key: "title", ascending: true)]
            request.fetchBatchSize = 2
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "year", cacheName: cacheName)
            try controller.performFetch()
            let sections = controller.sections ?? []
            return (sections.map(\.name), sections.map(\.numberOfObjects))
        }
    }

    /// Rewrites a cache with its section names marked, so that a controller that reuses it
    /// shows the marked names.
    private static func markSections(ofCacheNamed name: String) throws {
        let cache = try #require(FetchedResultsCache.load(named: name))
        FetchedResultsCache(signature: cache.signature, sections: cache.sections.map { .init(name: "cached \($0.name)", count: $0.count) }).save(named: name)
    }

    @Test func aCacheIsReusedUntilTheStoreChanges() throws {
        let stack = try Self.stack()
        let name = "FetchedResultsCacheTests-\(UUID().uuidString)"
        defer { NSFetchedResultsController<NSManagedObject>.deleteCache(withName: name) }

        let uncached = try Self.fetch(stack, cacheName: nil)
        #expect(uncached.sections == ["1979", "1982", "1985", "1995", "1998"])
        #expect(uncached.sizes == [1, 1, 2, 1, 1])
        let first = try Self.fetch(stack, cacheName: name)
        #expect(first.sections == uncached.sections && first.sizes == uncached.sizes)
        #expect(FileManager.default.fileExists(atPath: FetchedResultsCache.file(named: name).path))
        try Self.markSections(ofCacheNamed: name)
        let second = try Self.fetch(stack, cacheName: name)
        #expect(second.sections == uncached.sections.map { "cached \($0)" }, "the cache answers")
        #expect(second.sizes == uncached.sizes)

        try stack.context.performAndWait {
            ctxInsert("Movie", into: stack.context, ["title": "Arrival", "year": 2016])
            try stack.context.save()
        }
        try Self.markSections(ofCacheNamed: name)
        let afterSave = try Self.fetch(stack, cacheName: name)
        #expect(afterSave.sections == uncached.sections + ["2016"], "the store changed: the cache is recomputed")

        try Self.markSections(ofCacheNamed: name)
        NSFetchedResultsController<NSManagedObject>.deleteCache(withName: name)
        #expect(!FileManager.default.fileExists(atPath: FetchedResultsCache.file(named: name).path))
        #expect(try Self.fetch(stack, cacheName: name).sections == uncached.sections + ["2016"])
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
