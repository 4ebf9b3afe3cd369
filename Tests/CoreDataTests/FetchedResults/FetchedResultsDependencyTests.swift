@testable import CoreData
import Foundation
import Testing

/// Sort and section key paths through relationships: a change to the related object moves the
/// fetched objects that lead to it (the issue asks for this; Apple's controller ignores such
/// changes, spec FRC-27).
@Suite struct FetchedResultsDependencyTests {
    /// Records the object changes of each batch as "type name old→new".
    private final class Recorder: NSFetchedResultsControllerDelegate {
        var changes: [String] = []
        var sectionChanges: [String] = []

        func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                        at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
            let name = (anObject as? NSManagedObject)?.value(forKey: "name") as? String ?? "?"
            changes.append("\(type) \(name) \(Self.text(indexPath))→\(Self.text(newIndexPath))")
        }

        func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: NSFetchedResultsSectionInfo,
                        atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {
            sectionChanges.append("\(type) \(sectionInfo.name) \(sectionIndex)")
        }

        private static func text(_ indexPath: IndexPath?) -> String {
            indexPath.map { "\($0.section).\($0.row)" } ?? "-"
        }
    }

    @Test func renamingAMovieMovesItsCharactersToTheNewSection() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            let alien = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let heat = ctxInsert("Movie", into: stack.context, ["title": "Heat"])
            ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": alien])
            ctxInsert("Character", into: stack.context, ["name": "McCauley", "movie": heat])
            try stack.context.save()

            let request = NSFetchRequest<NSManagedObject>(entityName: "Character")
            request.sortDescriptors = [NSSortDescriptor(key: "movie.title", ascending: true), NSSortDescriptor(key: "name", ascending: true)]
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: stack.context, sectionNameKeyPath: "movie.title", cacheName: nil)
            let recorder = Recorder()
            controller.delegate = recorder
            try controller.performFetch()
            #expect(controller.sections?.map(\.name) == ["Alien", "Heat"])

            alien.setValue("Ronin", forKey: "title")
            stack.context.processPendingChanges()
            #expect(controller.sections?.map(\.name) == ["Heat", "Ronin"])
            #expect(recorder.sectionChanges == ["delete Alien 0", "insert Ronin 1"])
            #expect(recorder.changes == ["move Ripley 0.0→1.0"])
        }
    }

    @Test func aRelatedChangeThatKeepsTheOrderIsAnUpdate() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            let alien = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": alien])
            ctxInsert("Character", into: stack.context, ["name": "Ash", "movie": alien])
            try stack.context.save()

            let request = NSFetchRequest<NSManagedObject>(entityName: "Character")
            request.sortDescriptors = [NSSortDescriptor(key: "movie.title", ascending: true), NSSortDescriptor(key: "name", ascending: true)]
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: stack.context, sectionNameKeyPath: nil, cacheName: nil)
            let recorder = Recorder()
            controller.delegate = recorder
            try controller.performFetch()

            alien.setValue("Alien (1979)", forKey: "title")
            stack.context.processPendingChanges()
            #expect(recorder.changes.sorted() == ["update Ash 0.0→0.0", "update Ripley 0.1→0.1"])
        }
    }

    @Test func unrelatedEntitiesAreNotFollowed() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            let alien = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": alien])
            try stack.context.save()

            let request = NSFetchRequest<NSManagedObject>(entityName: "Character")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: stack.context, sectionNameKeyPath: nil, cacheName: nil)
            let recorder = Recorder()
            controller.delegate = recorder
            try controller.performFetch()

            alien.setValue("Alien (1979)", forKey: "title")
            stack.context.processPendingChanges()
            #expect(recorder.changes.isEmpty)
        }
    }

    /// Characters sectioned by their movie's title: Alien and Heat with 100 characters each.
    private static func charactersOfTwoMovies() throws -> (CtxStack, NSFetchedResultsController<NSManagedObject>, Recorder) {
        let stack = try CtxStack(model: MovieModel.make())
        let recorder = Recorder()
        let controller = try stack.context.performAndWait { () throws -> NSFetchedResultsController<NSManagedObject> in
            for title in ["Alien", "Heat"] {
                let movie = ctxInsert("Movie", into: stack.context, ["title": title])
                for number in 0..<100 { ctxInsert("Character", into: stack.context, ["name": "\(title) \(number + 100)", "movie": movie]) }
            }
            try stack.context.save()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Character")
            request.sortDescriptors = [NSSortDescriptor(key: "movie.title", ascending: true), NSSortDescriptor(key: "name", ascending: true)]
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: stack.context, sectionNameKeyPath: "movie.title", cacheName: nil)
            controller.delegate = recorder
            try controller.performFetch()
            return controller
        }
        return (stack, controller, recorder)
    }

    /// Renames a character of Alien, inserts one into Alien and deletes one of Heat: both movies'
    /// characters change, which lists both movies as changed.
    private static func changeThreeCharacters(in context: NSManagedObjectContext) throws {
        try ctxFetch("Character", in: context, "name == 'Alien 150'")[0].setValue("Alien 100a", forKey: "name")
        ctxInsert("Character", into: context, ["name": "Alien 199a", "movie": try ctxFetch("Movie", in: context, "title == 'Alien'")[0]])
        context.delete(try ctxFetch("Character", in: context, "name == 'Heat 120'")[0])
    }

    @Test(arguments: [false, true])
    func aSaveThatChangesTheCharactersOfTwoMoviesReportsOnlyThoseCharacters(merged: Bool) throws {
        let (stack, controller, recorder) = try Self.charactersOfTwoMovies()
        if merged {
            let other = stack.newContext()
            let saves = CtxNotificationRecorder(.NSManagedObjectContextDidSave, object: other)
            defer { saves.stop() }
            try other.performAndWait {
                try Self.changeThreeCharacters(in: other)
                try other.save()
            }
            let saved = try #require(saves.notifications.first)
            stack.context.performAndWait { stack.context.mergeChanges(fromContextDidSave: saved) }
        } else {
            try stack.context.performAndWait {
                try Self.changeThreeCharacters(in: stack.context)
                try stack.context.save()
            }
        }
        // The movies changed, but not their titles: only the three characters are reported.
        #expect(recorder.changes.sorted() == ["delete Heat 120 1.20→-", "insert Alien 199a -→0.100", "move Alien 100a 0.50→0.1"])
        #expect(stack.context.performAndWait { controller.sections?.map(\.numberOfObjects) } == [101, 99])
    }

    @Test(arguments: [0, 10])
    func sectionsFollowTheValuesTheContextHolds(batchSize: Int) throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            let alien = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let heat = ctxInsert("Movie", into: stack.context, ["title": "Heat"])
            ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": alien])
            ctxInsert("Character", into: stack.context, ["name": "McCauley", "movie": heat])
            try stack.context.save()

            // Renamed in the context, not in the store, which sorts by its own titles.
            alien.setValue("Zulu", forKey: "title")
            let request = NSFetchRequest<NSManagedObject>(entityName: "Character")
            request.sortDescriptors = [NSSortDescriptor(key: "movie.title", ascending: true), NSSortDescriptor(key: "name", ascending: true)]
            request.fetchBatchSize = batchSize
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: stack.context, sectionNameKeyPath: "movie.title", cacheName: nil)
            try controller.performFetch()
            #expect(controller.sections?.map(\.name) == ["Heat", "Zulu"])
            #expect(controller.fetchedObjects?.map { $0.value(forKey: "name") as? String } == ["McCauley", "Ripley"])
        }
    }
}
