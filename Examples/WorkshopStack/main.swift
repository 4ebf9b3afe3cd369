// The Core Data workshop's stack, as a program on Linux: a persistent container, its
// main-queue view context, child contexts for edits that are saved through their parent or
// thrown away, and then the app's next release, whose model version adds an attribute: the
// same store file opens with lightweight migration.
//
//     swift run WorkshopStack [STORE-DIRECTORY]

import CoreData

let directory = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? NSTemporaryDirectory() + "WorkshopStack", isDirectory: true)
let storeURL = directory.appendingPathComponent("Workshop.sqlite")

// Workshop.xcdatamodeld ships as a resource with two versions: "Workshop" (the first release)
// and "Workshop 2", the current one, which gives each session a room.
guard let modelURL = Bundle.module.url(forResource: "Workshop", withExtension: "xcdatamodeld"),
      let version1 = NSManagedObjectModel(contentsOf: modelURL.appendingPathComponent("Workshop.xcdatamodel")),
      let version2 = NSManagedObjectModel(contentsOf: modelURL) else {
    fatalError("Workshop.xcdatamodeld is missing from the program's resources")
}

/// A container for one version of the model, on the store file. The two migration options
/// are on by default; they are spelled out here because the second release relies on them.
func openStack(_ model: NSManagedObjectModel) throws -> NSPersistentContainer {
    let container = NSPersistentContainer(name: "Workshop", managedObjectModel: model)
    let description = NSPersistentStoreDescription(url: storeURL)
    description.shouldMigrateStoreAutomatically = true
    description.shouldInferMappingModelAutomatically = true
    container.persistentStoreDescriptions = [description]
    var loadError: Error?
    container.loadPersistentStores { _, error in loadError = error }
    if let loadError { throw loadError }
    return container
}

/// The sessions a context sees, by title: with `room` once the model has it.
func sessions(in context: NSManagedObjectContext) throws -> [String] {
    try context.performAndWait {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Session")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        return try context.fetch(request).map { session in
            let room = session.entity.attributesByName["room"] == nil ? "" : ", \(session.value(forKey: "room") as! String)"
            return "\(session.value(forKey: "title") as! String) (\(session.value(forKey: "speaker") as! String)\(room))"
        }
    }
}

/// Prints what the view context shows and what the store holds, read by a new background
/// context, which sees only what was saved to the store.
func printSessions(_ heading: String, of container: NSPersistentContainer) throws {
    print(heading)
    print("  view:  \(try sessions(in: container.viewContext).joined(separator: "; "))")
    print("  store: \(try sessions(in: container.newBackgroundContext()).joined(separator: "; "))")
}

/// A session of a context, by title.
func session(_ title: String, in context: NSManagedObjectContext) throws -> NSManagedObject {
    let request = NSFetchRequest<NSManagedObject>(entityName: "Session")
    request.predicate = NSPredicate(format: "title == %@", title)
    return try context.fetch(request)[0]
}

// Each run starts from an empty store, written by the first release.
try NSPersistentStoreCoordinator(managedObjectModel: version1).destroyPersistentStore(at: storeURL, type: .sqlite)
let firstRelease = try openStack(version1)
let viewContext = firstRelease.viewContext
for (title, speaker) in [("Core Data basics", "Ana"), ("Contexts and queues", "Ben"), ("Faults", "Chloé")] {
    let session = NSEntityDescription.insertNewObject(forEntityName: "Session", into: viewContext)
    session.setValue(title, forKey: "title")
    session.setValue(speaker, forKey: "speaker")
}
try viewContext.save()
try printSessions("Saved three sessions", of: firstRelease)

// An edit screen works in a child of the view context: a scratch pad whose save pushes its
// changes into the parent, not into the store. The child is on the main queue too, since the
// program runs its screens on the main thread.
let editor = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
editor.parent = viewContext
try session("Contexts and queues", in: editor).setValue("Contexts, queues and threads", forKey: "title")
try editor.save()
try printSessions("The editor saved: the view context has the new title, the store not yet", of: firstRelease)
// Saving the parent is what writes the edit to the store.
try viewContext.save()
try printSessions("The view context saved", of: firstRelease)

// An edit the user cancels: the child is thrown away unsaved, and the parent never sees its
// changes.
do {
    let cancelled = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
    cancelled.parent = viewContext
    cancelled.delete(try session("Faults", in: cancelled))
    try session("Core Data basics", in: cancelled).setValue("Zoe", forKey: "speaker")
    print("The cancelled editor had changes: \(cancelled.hasChanges); the view context has changes: \(viewContext.hasChanges)")
}
try printSessions("After the cancelled edit", of: firstRelease)

// The first release is closed: its store leaves its coordinator before the file migrates.
for store in firstRelease.persistentStoreCoordinator.persistentStores {
    try firstRelease.persistentStoreCoordinator.remove(store)
}

// The next release opens the same file with version 2. The store's metadata says which
// version wrote it; Core Data finds that version in the model bundle, infers the mapping
// (an added attribute with a default), and migrates the file in place.
let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: storeURL, options: nil)
print("Before: the store fits version 1: \(version1.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)), version 2: \(version2.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))")
let secondRelease = try openStack(version2)
let migrated = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: storeURL, options: nil)
print("After: the store fits version 1: \(version1.isConfiguration(withName: nil, compatibleWithStoreMetadata: migrated)), version 2: \(version2.isConfiguration(withName: nil, compatibleWithStoreMetadata: migrated))")
try printSessions("Migrated: every session has the new attribute's default room", of: secondRelease)

try session("Faults", in: secondRelease.viewContext).setValue("Room 2", forKey: "room")
try secondRelease.viewContext.save()
try printSessions("The second release moved a session", of: secondRelease)
