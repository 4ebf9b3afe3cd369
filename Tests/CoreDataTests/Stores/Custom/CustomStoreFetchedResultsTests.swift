import CoreData
import Testing

/// A fetched results controller over the stores a program subclasses (`BookshelfStore`,
/// `ShelfFileStore`) follows its context's changes, and the saves of another context merged
/// into it.
@Suite struct CustomStoreFetchedResultsTests {
    typealias Kind = CustomStoreShelf.Kind

    /// Records each object change as "kind title old -> new" (rows only: one section); a deleted
    /// object, gone from the store, is named by its row alone.
    final class ChangeLog: NSFetchedResultsControllerDelegate {
        var changes: [String] = []

        func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                        at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
            let title = { (anObject as? NSManagedObject)?.value(forKey: "title") as? String ?? "?" }
            let rows = "\(indexPath.map { "\($0.item)" } ?? "-") -> \(newIndexPath.map { "\($0.item)" } ?? "-")"
            switch type {
            case .insert: changes.append("insert \(title()) \(rows)")
            case .delete: changes.append("delete \(rows)")
            case .move: changes.append("move \(title()) \(rows)")
            case .update: changes.append("update \(title()) \(rows)")
            }
        }
    }

    /// Books from 1970 on, by title.
    private func makeController(in context: NSManagedObjectContext) throws -> (NSFetchedResultsController<NSManagedObject>, ChangeLog) {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.predicate = NSPredicate(format: "year >= 1970")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        let log = ChangeLog()
        controller.delegate = log
        try controller.performFetch()
        return (controller, log)
    }

    private func titles(_ controller: NSFetchedResultsController<NSManagedObject>) -> [String] {
        (controller.fetchedObjects ?? []).map { $0.value(forKey: "title") as? String ?? "?" }
    }

    @Test(arguments: Kind.allCases)
    func theControllerTracksInsertsUpdatesAndDeletesOfItsContext(_ kind: Kind) throws {
        let shelf = try kind.shelf()
        let context = shelf.context
        try context.performAndWait {
            let (controller, log) = try makeController(in: context)
            #expect(titles(controller) == ["Invisible Cities", "The Dispossessed"])
            let books = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book"))
            let book = { (title: String) in books.first { $0.value(forKey: "title") as? String == title } }
            book("A Wizard of Earthsea")?.setValue(1971, forKey: "year")
            book("Invisible Cities")?.setValue(1973, forKey: "year")
            context.delete(try #require(book("The Dispossessed")))
            let ficciones = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
            ficciones.setValue("Ficciones", forKey: "title")
            ficciones.setValue(1975, forKey: "year")
            try context.save()
            // No object of the results stayed unchanged, so Invisible Cities did not move among
            // them: it is updated, from its old row to its new one.
            #expect(Set(log.changes) == [
                "insert A Wizard of Earthsea - -> 0", "insert Ficciones - -> 1", "update Invisible Cities 0 -> 2", "delete 1 -> -",
            ])
            #expect(titles(controller) == ["A Wizard of Earthsea", "Ficciones", "Invisible Cities"])
        }
    }

    @Test(arguments: Kind.allCases)
    func theControllerTracksAnotherContextsSaveMergedIntoItsContext(_ kind: Kind) throws {
        let shelf = try kind.shelf()
        let context = shelf.context
        context.automaticallyMergesChangesFromParent = true
        let (controller, log) = try context.performAndWait { try makeController(in: context) }
        let writer = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        writer.persistentStoreCoordinator = context.persistentStoreCoordinator
        try writer.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
            let books = try writer.fetch(request)
            books[1].setValue(1979, forKey: "year")
            writer.delete(books[2])
            try writer.save()
        }
        // The merge runs on the context's queue; a block queued after it runs once it is done.
        context.performAndWait {}
        context.performAndWait {
            #expect(Set(log.changes) == ["update Invisible Cities 0 -> 0", "delete 1 -> -"])
            #expect(titles(controller) == ["Invisible Cities"])
        }
    }
}
