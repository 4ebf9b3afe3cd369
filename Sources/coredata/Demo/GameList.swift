import CoreData
import Foundation

/// The tutorials' Games list: a fetched results controller over games by genre, whose delegate
/// prints each change the way a table view would apply it.
struct GameList {
    /// Prints the controller's changes as it reports them.
    private final class Printer: NSFetchedResultsControllerDelegate {
        func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
            print("  begin updates")
        }

        func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: NSFetchedResultsSectionInfo,
                        atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {
            print("    \(type == .insert ? "insert" : "delete") section \(sectionIndex) \"\(sectionInfo.name)\"")
        }

        func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                        at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
            let name = (anObject as? NSManagedObject)?.value(forKey: "name") as? String ?? "?"
            switch type {
            case .insert: print("    insert row \(Self.describe(newIndexPath)): \(name)")
            case .delete: print("    delete row \(Self.describe(indexPath)): \(name)")
            case .move: print("    move row \(Self.describe(indexPath)) → \(Self.describe(newIndexPath)): \(name)")
            case .update: print("    reload row \(Self.describe(indexPath)): \(name)")
            }
        }

        func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
            print("  end updates")
        }

        private static func describe(_ indexPath: IndexPath?) -> String {
            indexPath.map { "[\($0.section), \($0.row)]" } ?? "-"
        }
    }

    func run() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.makeModel())
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let printer = Printer()
        try context.performAndWait {
            for (name, genre) in [("Celeste", "Platformer"), ("Hades", "Roguelike"), ("Portal 2", "Puzzle")] {
                Self.insertGame(name, genre, into: context)
            }
            try context.save()

            let request = NSFetchRequest<NSManagedObject>(entityName: "Game")
            request.sortDescriptors = [NSSortDescriptor(key: "genre", ascending: true), NSSortDescriptor(key: "name", ascending: true)]
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "genre", cacheName: nil)
            controller.delegate = printer
            try controller.performFetch()
            print("\nThe Games list: a fetched results controller by genre, \(controller.sections?.count ?? 0) sections:")
            for section in controller.sections ?? [] {
                let names = (section.objects ?? []).compactMap { ($0 as? NSManagedObject)?.value(forKey: "name") as? String }
                print("  \(section.name): \(names.joined(separator: ", "))")
            }

            print("Adding \"Hollow Knight\" (Platformer) and \"Baba Is You\" (Puzzle):")
            Self.insertGame("Hollow Knight", "Platformer", into: context)
            Self.insertGame("Baba Is You", "Puzzle", into: context)
            try context.save()

            print("Renaming \"Hades\" to \"Hades II\", and moving \"Celeste\" to a new genre, Adventure:")
            let games = try context.fetch(request)
            games.first { $0.value(forKey: "name") as? String == "Hades" }?.setValue("Hades II", forKey: "name")
            games.first { $0.value(forKey: "name") as? String == "Celeste" }?.setValue("Adventure", forKey: "genre")
            try context.save()

            print("Deleting \"Portal 2\":")
            if let portal = games.first(where: { $0.value(forKey: "name") as? String == "Portal 2" }) { context.delete(portal) }
            try context.save()
        }
    }

    private static func insertGame(_ name: String, _ genre: String, into context: NSManagedObjectContext) {
        let game = NSEntityDescription.insertNewObject(forEntityName: "Game", into: context)
        game.setValue(name, forKey: "name")
        game.setValue(genre, forKey: "genre")
    }

    private static func makeModel() -> NSManagedObjectModel {
        let game = NSEntityDescription()
        game.name = "Game"
        game.properties = ["name", "genre"].map { key in
            let attribute = NSAttributeDescription()
            attribute.name = key
            attribute.attributeType = .stringAttributeType
            attribute.isOptional = false
            return attribute
        }
        let model = NSManagedObjectModel()
        model.entities = [game]
        return model
    }
}
