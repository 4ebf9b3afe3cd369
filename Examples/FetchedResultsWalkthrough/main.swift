// The fetched results controller walk-through of the Core Data tutorials, as a program on
// Linux: a contact list in sections by group, whose controller tells its delegate how the
// list changes. The delegate turns each change into the call a table view would get, and
// prints the calls as the table applies them, while the program inserts, edits, moves and
// deletes contacts.
//
//     swift run FetchedResultsWalkthrough [STORE-DIRECTORY]

import CoreData

/// Stands in for a table view controller: each delegate callback becomes a `UITableView` call.
final class ContactsTable: NSFetchedResultsControllerDelegate {
    /// A table view call of the current batch. Between `beginUpdates()` and `endUpdates()`, a
    /// table applies the deletions of rows and sections first, then the insertions, whatever
    /// the order of the calls; the controller reports a batch's changes in no documented
    /// order. So the calls are printed at the end of the batch, in the order the table
    /// applies them: by kind, then by index path.
    private struct Call {
        enum Kind: Int { case deleteSections, deleteRows, insertSections, insertRows, moveRow, reloadRows }
        let kind: Kind
        let path: IndexPath
        let text: String
    }

    private var calls: [Call] = []

    // The controller is about to report a batch of changes: the table batches its animations.
    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        print("  tableView.beginUpdates()")
        calls = []
    }

    // Sections come and go with their first and last rows.
    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: NSFetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {
        let kind: Call.Kind = type == .insert ? .insertSections : .deleteSections
        calls.append(Call(kind: kind, path: IndexPath(index: sectionIndex), text: "\(kind)([\(sectionIndex)])  // \(sectionInfo.name)"))
    }

    // A row's old index path is where it was before the batch, its new one where it is after:
    // deletes and reloads use the old, inserts the new, and a move both.
    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                    at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
        let name = (anObject as! NSManagedObject).value(forKey: "name") as! String
        switch type {
        case .insert: calls.append(Call(kind: .insertRows, path: newIndexPath!, text: "insertRows(at: [\(show(newIndexPath))])  // \(name)"))
        case .delete: calls.append(Call(kind: .deleteRows, path: indexPath!, text: "deleteRows(at: [\(show(indexPath))])  // \(name)"))
        case .move: calls.append(Call(kind: .moveRow, path: indexPath!, text: "moveRow(at: \(show(indexPath)), to: \(show(newIndexPath)))  // \(name)"))
        case .update: calls.append(Call(kind: .reloadRows, path: indexPath!, text: "reloadRows(at: [\(show(indexPath))])  // \(name)"))
        }
    }

    // The batch is over: the table animates it, and shows the controller's new content.
    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        let applied = calls.sorted { ($0.kind.rawValue, $0.path) < ($1.kind.rawValue, $1.path) }
        for call in applied { print("    \(call.text)") }
        print("  tableView.endUpdates()")
        printRows(of: controller)
    }

    func printRows(of controller: NSFetchedResultsController<NSFetchRequestResult>) {
        for section in controller.sections ?? [] {
            let names = (section.objects ?? []).map { ($0 as! NSManagedObject).value(forKey: "name") as! String }
            print("  \(section.name): \(names.joined(separator: ", "))")
        }
    }

    private func show(_ indexPath: IndexPath?) -> String {
        indexPath.map { "[\($0.section), \($0.row)]" } ?? "nil"
    }
}

/// The model: a contact with a name, a group (the table's sections) and a phone number.
func makeModel() -> NSManagedObjectModel {
    let contact = NSEntityDescription()
    contact.name = "Contact"
    contact.properties = ["name", "group", "phone"].map { name in
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.type = .string
        return attribute
    }
    let model = NSManagedObjectModel()
    model.entities = [contact]
    return model
}

// The stack, built by hand as the walk-through builds it: a coordinator with a SQLite store,
// and a main-queue context for the table.
let directory = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? NSTemporaryDirectory() + "FetchedResultsWalkthrough", isDirectory: true)
let storeURL = directory.appendingPathComponent("Contacts.sqlite")
let coordinator = NSPersistentStoreCoordinator(managedObjectModel: makeModel())
try coordinator.destroyPersistentStore(at: storeURL, type: .sqlite)   // each run starts afresh
try coordinator.addPersistentStore(type: .sqlite, at: storeURL)
let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
context.persistentStoreCoordinator = coordinator

@discardableResult
func addContact(_ name: String, group: String) -> NSManagedObject {
    let contact = NSEntityDescription.insertNewObject(forEntityName: "Contact", into: context)
    contact.setValue(name, forKey: "name")
    contact.setValue(group, forKey: "group")
    return contact
}

let ada = addContact("Ada", group: "Work")
let ben = addContact("Ben", group: "Friends")
let cleo = addContact("Cleo", group: "Family")
let dan = addContact("Dan", group: "Work")
try context.save()

// Sorted by group first, so that each section's rows are together, then by name.
let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Contact")
request.sortDescriptors = [NSSortDescriptor(key: "group", ascending: true), NSSortDescriptor(key: "name", ascending: true)]
let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "group", cacheName: nil)
let table = ContactsTable()
controller.delegate = table
try controller.performFetch()
print("The table")
table.printRows(of: controller)

// The controller reports the changes when the context processes them: here, at each save.
print("Insert Eve in a new group, and Al in Work")
addContact("Eve", group: "Neighbours")
addContact("Al", group: "Work")
try context.save()

print("Rename Ada to Zoe (her row moves), and give Dan a phone number (his row is reloaded)")
ada.setValue("Zoe", forKey: "name")
dan.setValue("555-0100", forKey: "phone")
try context.save()

print("Move Ben to Work, and delete Cleo, the last of Family")
ben.setValue("Work", forKey: "group")
context.delete(cleo)
try context.save()
