@testable import CoreData
import Foundation
import Testing

/// NSFetchedResultsController without tracking (spec FRC-1 to FRC-15): fetching, sections, index
/// paths and the section index.
@Suite struct FetchedResultsControllerTests {
    /// A stack whose store holds movies by decade: Alien (1979), Blade Runner (1982), Brazil (1985),
    /// Heat (1995), and Ronin (1998).
    private static func stack(_ storeType: String = NSSQLiteStoreType) throws -> CtxStack {
        let stack = try CtxStack(model: MovieModel.make(), storeType: storeType)
        try stack.context.performAndWait {
            for (title, year) in [("Alien", 1979), ("Blade Runner", 1982), ("Brazil", 1985), ("Heat", 1995), ("Ronin", 1998)] {
                ctxInsert("Movie", into: stack.context, ["title": title, "year": year])
            }
            try stack.context.save()
        }
        return stack
    }

    private static func request(sortedBy keys: [String] = ["title"], _ format: String? = nil) -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
        request.sortDescriptors = keys.map { NSSortDescriptor(key: $0, ascending: true) }
        request.predicate = format.map { NSPredicate(format: $0) }
        return request
    }

    private static func titles(_ objects: [Any]?) -> [String] {
        (objects ?? []).compactMap { ($0 as? NSManagedObject)?.value(forKey: "title") as? String }
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType]) func fetchingFillsOneSection(storeType: String) throws {
        let stack = try Self.stack(storeType)
        try stack.context.performAndWait {
            let controller = NSFetchedResultsController(fetchRequest: Self.request(), managedObjectContext: stack.context, sectionNameKeyPath: nil, cacheName: nil)
            #expect(controller.fetchedObjects == nil)
            #expect(controller.sections == nil)
            try controller.performFetch()
            #expect(Self.titles(controller.fetchedObjects) == ["Alien", "Blade Runner", "Brazil", "Heat", "Ronin"])
            let section = try #require(controller.sections?.first)
            #expect(controller.sections?.count == 1)
            #expect(section.name == "")
            #expect(section.numberOfObjects == 5)
            #expect(Self.titles(section.objects) == Self.titles(controller.fetchedObjects))
            let brazil = controller.object(at: IndexPath(row: 2, section: 0))
            #expect(brazil.value(forKey: "title") as? String == "Brazil")
            #expect(controller.indexPath(forObject: brazil) == IndexPath(row: 2, section: 0))
        }
    }

    @Test func aControllerWithoutSectionsHasOneEmptySectionForNoResults() throws {
        let stack = try Self.stack()
        try stack.context.performAndWait {
            let controller = NSFetchedResultsController(fetchRequest: Self.request(sortedBy: ["title"], "year > 2000"), managedObjectContext: stack.context,
                                                        sectionNameKeyPath: nil, cacheName: nil)
            try controller.performFetch()
            #expect(controller.sections?.count == 1)
            #expect(controller.sections?.first?.numberOfObjects == 0)
            #expect(controller.fetchedObjects?.isEmpty == true)
        }
    }

    @Test func aRequestWithoutSortDescriptorsCannotBeFetched() throws {
        let stack = try Self.stack()
        stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: stack.context, sectionNameKeyPath: nil, cacheName: nil)
            let error = ctxError { try controller.performFetch() }
            #expect(error?.domain == NSCocoaErrorDomain)
            #expect(controller.fetchedObjects == nil)
        }
    }

    @Test func sectionsFollowTheSectionKeyPath() throws {
        let stack = try Self.stack()
        try stack.context.performAndWait {
            // The section key path may be any key path whose value follows the sort: here the
            // first letter of the title, sorted by title.
            let controller = NSFetchedResultsController(fetchRequest: Self.request(sortedBy: ["title"]), managedObjectContext: stack.context,
                                                        sectionNameKeyPath: "title", cacheName: nil)
            try controller.performFetch()
            #expect(controller.sections?.map(\.name) == ["Alien", "Blade Runner", "Brazil", "Heat", "Ronin"])
            #expect(controller.sections?.map(\.indexTitle) == ["A", "B", "B", "H", "R"])
            #expect(controller.sectionIndexTitles == ["A", "B", "H", "R"])
            #expect(controller.section(forSectionIndexTitle: "H", at: 2) == 3)
            #expect(controller.section(forSectionIndexTitle: "Z", at: 9) == 0)
            let heat = controller.object(at: IndexPath(row: 0, section: 3))
            #expect(controller.indexPath(forObject: heat) == IndexPath(row: 0, section: 3))
        }
    }

    @Test func numbersNameSectionsByTheirDescription() throws {
        let stack = try Self.stack()
        try stack.context.performAndWait {
            let controller = NSFetchedResultsController(fetchRequest: Self.request(sortedBy: ["year"]), managedObjectContext: stack.context,
                                                        sectionNameKeyPath: "year", cacheName: nil)
            try controller.performFetch()
            #expect(controller.sections?.map(\.name) == ["1979", "1982", "1985", "1995", "1998"])
        }
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType]) func aBatchedFetchLeavesTheObjectsFaults(storeType: String) throws {
        let stack = try Self.stack(storeType)
        try stack.context.performAndWait {
            try ctxFetch("Movie", in: stack.context, "title == 'Heat'")[0].setValue(nil, forKey: "year")
            try stack.context.save()
            stack.context.reset()
            let request = Self.request(sortedBy: ["year", "title"])
            request.fetchBatchSize = 2
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: stack.context, sectionNameKeyPath: "year", cacheName: nil)
            try controller.performFetch()
            #expect(controller.sections?.map(\.name) == ["", "1979", "1982", "1985", "1998"])
            #expect(controller.sections?.map(\.numberOfObjects) == [1, 1, 1, 1, 1])
            #expect(controller.fetchedObjects?.allSatisfy(\.isFault) == true)
            let ronin = controller.object(at: IndexPath(row: 0, section: 4))
            #expect(ronin.value(forKey: "title") as? String == "Ronin")
            #expect(controller.indexPath(forObject: ronin) == IndexPath(row: 0, section: 4))
        }
    }

    /// A batched controller over a store's data reads every row's key and sort values in one
    /// query, and makes objects only for the rows the program reads, a batch at a time.
    @Test func aBatchedControllerMakesObjectsOnlyWhenAsked() throws {
        let stack = try Self.stack()
        try stack.context.performAndWait {
            stack.context.reset()
            let request = Self.request(sortedBy: ["year", "title"])
            request.fetchBatchSize = 2
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: stack.context, sectionNameKeyPath: nil, cacheName: nil)
            let statements = try ctxStatements(in: stack) { try controller.performFetch() }
            #expect(statements.count == 1, "\(statements)")
            #expect(stack.context.registeredObjects.isEmpty)
            #expect(controller.sections?.first?.numberOfObjects == 5)

            let brazil = controller.object(at: IndexPath(row: 2, section: 0))
            #expect(stack.context.registeredObjects.count == 2, "the objects of its batch")
            #expect(brazil.value(forKey: "title") as? String == "Brazil")
            #expect(controller.indexPath(forObject: brazil) == IndexPath(row: 2, section: 0))
            let unmade = try #require(try ctxFetch("Movie", in: stack.context, "title == 'Ronin'").first)
            #expect(controller.indexPath(forObject: unmade) == IndexPath(row: 4, section: 0), "found by its row")
            #expect(controller.fetchedObjects?.compactMap { $0.value(forKey: "title") as? String } == ["Alien", "Blade Runner", "Brazil", "Heat", "Ronin"])
            #expect(controller.fetchedObjects?[4] === unmade)
        }
    }

    /// A merged delete of a row the controller never made an object for is reported at the
    /// row's place.
    @Test func aMergedDeleteOfARowWithoutItsObjectIsReported() throws {
        final class Recorder: NSFetchedResultsControllerDelegate {
            var changes: [String] = []
            func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?,
                            for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
                changes.append("\(type) \(indexPath.map { "\($0)" } ?? "nil") -> \(newIndexPath.map { "\($0)" } ?? "nil")")
            }
        }
        let stack = try Self.stack()
        let background = stack.newContext()
        let saves = CtxNotificationRecorder(.NSManagedObjectContextDidSave, object: background)
        let recorder = Recorder()
        let controller = try stack.context.performAndWait {
            stack.context.reset()
            let request = Self.request(sortedBy: ["year", "title"])
            request.fetchBatchSize = 2
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: stack.context, sectionNameKeyPath: nil, cacheName: nil)
            controller.delegate = recorder
            try controller.performFetch()
            return controller
        }
        try background.performAndWait {
            background.delete(try #require(try ctxFetch("Movie", in: background, "title == 'Heat'").first))
            try background.save()
        }
        let saved = try #require(saves.notifications.first)
        stack.context.performAndWait {
            stack.context.mergeChanges(fromContextDidSave: saved)
            #expect(stack.context.registeredObjects.isEmpty)
            #expect(recorder.changes == ["delete [0, 3] -> nil"])
            #expect(controller.sections?.first?.numberOfObjects == 4)
        }
    }

    @Test func sectionNamesOutOfOrderWithTheSortAreRefused() throws {
        let stack = try Self.stack()
        stack.context.performAndWait {
            // Sorted by title, sectioned by decade: the 1980s come back after the 1990s.
            let controller = NSFetchedResultsController(fetchRequest: Self.request(sortedBy: ["year"]), managedObjectContext: stack.context,
                                                        sectionNameKeyPath: "title", cacheName: nil)
            #expect(ctxError { try controller.performFetch() } == nil)
            let unsorted = NSFetchedResultsController(fetchRequest: Self.request(sortedBy: ["title"]), managedObjectContext: stack.context,
                                                      sectionNameKeyPath: "rating", cacheName: nil)
            #expect(ctxError { try unsorted.performFetch() } == nil, "every object has a nil rating: one section")
            let ratings = ["Alien": 8.5, "Blade Runner": 8.1, "Brazil": 8.5, "Heat": 8.3, "Ronin": 7.2]
            for movie in (try? ctxFetch("Movie", in: stack.context)) ?? [] {
                movie.setValue(ratings[movie.value(forKey: "title") as? String ?? ""], forKey: "rating")
            }
            let error = ctxError { try unsorted.performFetch() }
            #expect(error?.code == NSCoreDataError)
            #expect((error?.userInfo["reason"] as? String)?.contains("out of order section name '8.5") == true)
        }
    }

    @Test func aDelegateAnswersSectionIndexTitles() throws {
        final class Titles: NSFetchedResultsControllerDelegate {
            func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, sectionIndexTitleForSectionName sectionName: String) -> String? {
                String(sectionName.suffix(1))
            }
        }
        let stack = try Self.stack()
        try stack.context.performAndWait {
            let titles = Titles()
            let controller = NSFetchedResultsController(fetchRequest: Self.request(sortedBy: ["title"]), managedObjectContext: stack.context,
                                                        sectionNameKeyPath: "title", cacheName: nil)
            controller.delegate = titles
            try controller.performFetch()
            #expect(controller.sections?.map(\.indexTitle) == ["n", "r", "l", "t", "n"])
            #expect(controller.sectionIndexTitles == ["n", "r", "l", "t"])
        }
    }

    @Test func subclassesOverrideTheSectionIndexTitle() throws {
        final class LowercaseTitles: NSFetchedResultsController<NSManagedObject> {
            override func sectionIndexTitle(forSectionName sectionName: String) -> String? {
                sectionName.first.map { String($0).lowercased() }
            }
        }
        let stack = try Self.stack()
        try stack.context.performAndWait {
            let controller = LowercaseTitles(fetchRequest: Self.request(sortedBy: ["title"]), managedObjectContext: stack.context,
                                             sectionNameKeyPath: "title", cacheName: nil)
            try controller.performFetch()
            #expect(controller.sectionIndexTitles == ["a", "b", "h", "r"])
        }
    }

    @Test func withoutADelegateTheResultsStayAsFetched() throws {
        let stack = try Self.stack()
        try stack.context.performAndWait {
            let controller = NSFetchedResultsController(fetchRequest: Self.request(), managedObjectContext: stack.context, sectionNameKeyPath: nil, cacheName: nil)
            try controller.performFetch()
            ctxInsert("Movie", into: stack.context, ["title": "Arrival", "year": 2016])
            stack.context.processPendingChanges()
            #expect(controller.fetchedObjects?.count == 5)
            try controller.performFetch()
            #expect(Self.titles(controller.fetchedObjects) == ["Alien", "Arrival", "Blade Runner", "Brazil", "Heat", "Ronin"])
        }
    }

    @Test func pendingChangesAreFetched() throws {
        let stack = try Self.stack()
        try stack.context.performAndWait {
            let alien = try #require(try ctxFetch("Movie", in: stack.context, "title == 'Alien'").first)
            stack.context.delete(alien)
            ctxInsert("Movie", into: stack.context, ["title": "Arrival", "year": 2016])
            let controller = NSFetchedResultsController(fetchRequest: Self.request(), managedObjectContext: stack.context, sectionNameKeyPath: nil, cacheName: nil)
            try controller.performFetch()
            #expect(Self.titles(controller.fetchedObjects) == ["Arrival", "Blade Runner", "Brazil", "Heat", "Ronin"])
        }
    }

    @Test func typedControllersHandTheirDelegateAViewOfThemselves() throws {
        final class Recorder: NSFetchedResultsControllerDelegate {
            var counts: [Int] = []
            func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
                counts.append(controller.fetchedObjects?.count ?? -1)
            }
        }
        let stack = try Self.stack()
        try stack.context.performAndWait {
            let recorder = Recorder()
            let controller = NSFetchedResultsController(fetchRequest: Self.request(), managedObjectContext: stack.context, sectionNameKeyPath: nil, cacheName: nil)
            controller.delegate = recorder
            try controller.performFetch()
            ctxInsert("Movie", into: stack.context, ["title": "Arrival", "year": 2016])
            stack.context.processPendingChanges()
            #expect(recorder.counts == [6])
        }
    }
}
