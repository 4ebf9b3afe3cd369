// The movie catalogue of the Core Data tutorials, as a program on Linux: movies saved to a
// SQLite store, then shown the way a table view shows them, through a fetched results
// controller that groups them in sections by genre and fetches them in batches.
//
//     swift run MovieCatalog [STORE-DIRECTORY]

import CoreData

/// A movie, with typed properties over key-value coding (Linux has no `@NSManaged`).
final class Movie: NSManagedObject {
    var title: String {
        get { value(forKey: "title") as! String }
        set { setValue(newValue, forKey: "title") }
    }
    var year: Int {
        get { (value(forKey: "year") as! NSNumber).intValue }
        set { setValue(newValue, forKey: "year") }
    }
    var genre: String {
        get { value(forKey: "genre") as! String }
        set { setValue(newValue, forKey: "genre") }
    }
}

/// The model, described in code: one entity whose objects are `Movie`s.
func makeModel() -> NSManagedObjectModel {
    let movie = NSEntityDescription()
    movie.name = "Movie"
    movie.managedObjectClassName = NSStringFromClass(Movie.self)
    movie.properties = [("title", .string), ("year", .integer16), ("genre", .string)].map { name, type in
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.type = type
        attribute.isOptional = false
        return attribute
    }
    let model = NSManagedObjectModel()
    model.entities = [movie]
    return model
}

let directory = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? NSTemporaryDirectory() + "MovieCatalog", isDirectory: true)
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let container = NSPersistentContainer(name: "Movies", managedObjectModel: makeModel())
container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: directory.appendingPathComponent("Movies.sqlite"))]
var loadError: Error?
container.loadPersistentStores { _, error in loadError = error }
if let loadError { throw loadError }

// The program runs on the main thread, so it uses the main-queue context, as an app's table
// view controller does.
let context = container.viewContext

// A catalogue is filled once: a second run on the same directory finds the movies there.
if try context.count(for: NSFetchRequest<Movie>(entityName: "Movie")) == 0 {
    let catalogue: [(String, Int, String)] = [
        ("Alien", 1979, "Science fiction"), ("Arrival", 2016, "Science fiction"), ("Blade Runner", 1982, "Science fiction"),
        ("Casablanca", 1942, "Drama"), ("The Godfather", 1972, "Drama"), ("Moonlight", 2016, "Drama"),
        ("Some Like It Hot", 1959, "Comedy"), ("Groundhog Day", 1993, "Comedy"),
        ("Spirited Away", 2001, "Animation"), ("Toy Story", 1995, "Animation"), ("My Neighbor Totoro", 1988, "Animation"),
        ("Vertigo", 1958, "Thriller"),
    ]
    for (title, year, genre) in catalogue {
        let movie = Movie(context: context)
        movie.title = title
        movie.year = year
        movie.genre = genre
    }
    try context.save()
}

// The controller's request must sort by the section key first, so that each genre's movies
// are together; within a genre, the table lists them by title.
let request = NSFetchRequest<Movie>(entityName: "Movie")
request.sortDescriptors = [NSSortDescriptor(key: "genre", ascending: true), NSSortDescriptor(key: "title", ascending: true)]
// A table shows a screenful of rows at a time: with a batch size, the fetch reads only the
// objects' IDs, and each batch of 4 movies is read when a row of it is first shown.
request.fetchBatchSize = 4
let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                            sectionNameKeyPath: "genre", cacheName: nil)
try controller.performFetch()

/// Draws the table as the data source methods would fill it: a header per section, with its
/// row count, then its rows, each read through `object(at:)` as `cellForRowAt` reads it.
func printTable(of controller: NSFetchedResultsController<Movie>, _ heading: String) {
    print(heading)
    for (sectionIndex, section) in (controller.sections ?? []).enumerated() {
        print("  \(section.name) (\(section.numberOfObjects))")
        for row in 0..<section.numberOfObjects {
            let movie = controller.object(at: IndexPath(row: row, section: sectionIndex))
            print("    \(movie.year)  \(movie.title)")
        }
    }
}

printTable(of: controller, "Movies by genre")
// The section index down the table's right edge: the first letter of each section's name.
print("Index: \(controller.sectionIndexTitles.joined(separator: " "))")

// Searching changes the request's predicate; the controller fetches again, and the sections
// follow (genres without a match disappear).
controller.fetchRequest.predicate = NSPredicate(format: "title CONTAINS[cd] %@ OR year >= %d", "the", 2010)
try controller.performFetch()
printTable(of: controller, "Search: \"the\", or since 2010")
