// The news importer of the Core Data tutorials, as a program on Linux: a JSON feed of articles
// is decoded and imported on a background context, the view context merges the save, and a
// fetched results controller redraws the list. The feed is imported again an hour later: a
// uniqueness constraint on the article's id, with a merge policy, turns the articles seen
// before into updates instead of duplicates.
//
//     swift run NewsImporter [STORE-DIRECTORY]

import CoreData

/// An article as the feed sends it.
struct FeedArticle: Decodable {
    let id: Int
    let headline: String
    let section: String
}

let morningFeed = """
    [{"id": 101, "headline": "Rover finds ice on Mars", "section": "Science"},
     {"id": 102, "headline": "Summit opens in Geneva", "section": "World"},
     {"id": 103, "headline": "Local team wins the cup", "section": "Sport"}]
    """
// An hour later, the feed repeats two articles (one with a corrected headline) and adds one.
let laterFeed = """
    [{"id": 101, "headline": "Rover finds water ice near the south pole", "section": "Science"},
     {"id": 102, "headline": "Summit opens in Geneva", "section": "World"},
     {"id": 104, "headline": "Marathon record falls", "section": "Sport"}]
    """

/// The model: an article whose `id` is unique in the store.
func makeModel() -> NSManagedObjectModel {
    let article = NSEntityDescription()
    article.name = "Article"
    article.properties = [("id", .integer64), ("headline", .string), ("section", .string)].map { name, type in
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.type = type
        attribute.isOptional = false
        return attribute
    }
    article.uniquenessConstraints = [["id"]]
    let model = NSManagedObjectModel()
    model.entities = [article]
    return model
}

/// The list screen: redraws itself whenever the controller's content changed.
final class ArticleList: NSFetchedResultsControllerDelegate {
    var redrawn = false

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        for section in controller.sections ?? [] {
            print("  \(section.name)")
            for case let article as NSManagedObject in section.objects ?? [] {
                print("    #\(article.value(forKey: "id") as! Int) \(article.value(forKey: "headline") as! String)")
            }
        }
        redrawn = true
    }
}

let directory = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? NSTemporaryDirectory() + "NewsImporter", isDirectory: true)
let storeURL = directory.appendingPathComponent("News.sqlite")
let container = NSPersistentContainer(name: "News", managedObjectModel: makeModel())
// Each run starts with an empty store.
try container.persistentStoreCoordinator.destroyPersistentStore(at: storeURL, type: .sqlite)
container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: storeURL)]
var loadError: Error?
container.loadPersistentStores { _, error in loadError = error }
if let loadError { throw loadError }
// The view context takes in what the importer saves, on the main queue.
container.viewContext.automaticallyMergesChangesFromParent = true

let request = NSFetchRequest<NSManagedObject>(entityName: "Article")
request.sortDescriptors = [NSSortDescriptor(key: "section", ascending: true), NSSortDescriptor(key: "id", ascending: true)]
let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: container.viewContext,
                                            sectionNameKeyPath: "section", cacheName: nil)
let list = ArticleList()
controller.delegate = list
try controller.performFetch()

/// Decodes a feed and saves its articles from a new private-queue context, off the main
/// thread that draws the list. Each article is inserted as new: the store's constraint, under
/// the context's merge policy, decides what becomes of an id it already has.
func importFeed(_ json: String, mergePolicy: Any) throws {
    let articles = try JSONDecoder().decode([FeedArticle].self, from: Data(json.utf8))
    let importer = container.newBackgroundContext()
    importer.mergePolicy = mergePolicy
    try importer.performAndWait {
        for article in articles {
            let object = NSEntityDescription.insertNewObject(forEntityName: "Article", into: importer)
            object.setValue(article.id, forKey: "id")
            object.setValue(article.headline, forKey: "headline")
            object.setValue(article.section, forKey: "section")
        }
        try importer.save()
    }
}

/// Lets the main queue run until the view context has merged the import and the list has
/// redrawn: a command-line program has no run loop running by itself.
@MainActor func waitForTheList() {
    while !list.redrawn {
        _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.1))
    }
    list.redrawn = false
}

print("Morning feed")
try importFeed(morningFeed, mergePolicy: NSMergeByPropertyObjectTrumpMergePolicy)
waitForTheList()

// With the default policy, the repeated ids are conflicts the save reports, and nothing is saved.
do {
    try importFeed(laterFeed, mergePolicy: NSErrorMergePolicy)
} catch let error as NSError {
    let conflicts = error.userInfo["conflictList"] as? [NSConstraintConflict] ?? []
    print("Later feed with the error merge policy: not saved (\(error.domain) \(error.code), \(conflicts.count) constraint conflicts)")
}

// With the object-trump policy, an imported article that repeats an id updates the stored one.
print("Later feed with the object-trump merge policy")
try importFeed(laterFeed, mergePolicy: NSMergeByPropertyObjectTrumpMergePolicy)
waitForTheList()
print("Articles in the store: \(try container.viewContext.count(for: request))")
