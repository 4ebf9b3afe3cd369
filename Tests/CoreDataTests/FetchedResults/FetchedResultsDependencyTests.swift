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
}
