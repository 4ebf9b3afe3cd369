import ArgumentParser
import CoreData

/// `coredata demo`: saves the Movie / Actor / Character sample into a SQLite store (or, with
/// `--store`, a PostgreSQL one), reopens it, and shows sorting, paging, predicates run as SQL, a
/// grouped dictionary fetch, a cascading delete, a denied delete and an edit in a child context;
/// then the tutorials' Games list, a fetched results controller reporting changes as they happen.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Saves a small movie database in a SQLite store (or on a PostgreSQL server), reopens it and queries it."
    )

    @Option(help: "The directory of the store (default: the container's default directory).")
    var directory: String?

    @Option(help: "A PostgreSQL server to keep the store on instead, postgres://user@host:port/database (in the schema coredata_demo, or the one ?schema=name names; needs `swift run --traits PostgreSQL`).")
    var store: String?

    func run() throws {
        let store = try store.map(DemoStore.server) ?? DemoStore.sqlite(inDirectory: directory)
        let model = MovieCatalog.makeModel()

        print("Store: \(store.location)")
        if try store.removePrevious(model: model) { print("Removed the store of a previous run.") }
        try createStore(store, model: model)

        print("\nReopening the store with a new coordinator…")
        let context = try openStore(store, model: model)
        try context.performAndWait {
            try listMovies(in: context)
            try listActors(in: context)
            try findWithSubquery(in: context)
            try countFilmsPerDecade(in: context)
            try deleteMovie(in: context)
            try denyActorDelete(in: context)
            try editInChildContext(of: context)
            try showMetadata(of: context)
        }
        try GameList().run()
        print("\nDone. Run `coredata demo` again: it starts from a fresh store each time.")
    }

    // MARK: Steps

    private func createStore(_ store: DemoStore, model: NSManagedObjectModel) throws {
        let context = try openStore(store, model: model)
        try context.performAndWait {
            MovieCatalog.insertSampleData(into: context)
            let inserted = context.insertedObjects.count
            try context.save()
            print("Saved \(inserted) objects (\(MovieCatalog.movies.count) movies, \(MovieCatalog.actors.count) actors and their characters) in one transaction.")
        }
    }

    private func openStore(_ store: DemoStore, model: NSManagedObjectModel) throws -> NSManagedObjectContext {
        let container = NSPersistentContainer(name: "Movies", managedObjectModel: model)
        container.persistentStoreDescriptions = [store.storeDescription]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container.newBackgroundContext()
    }

    private func listMovies(in context: NSManagedObjectContext) throws {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
        request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: true)]
        request.fetchLimit = 4
        for page in 0..<2 {
            request.fetchOffset = page * request.fetchLimit
            var table = TextTable("Year", "Title", "Rating", "Characters")
            for movie in try context.fetch(request) {
                let characters = (movie.value(forKey: "characters") as? Set<NSManagedObject>) ?? []
                table.append(
                    "\(movie.value(forKey: "year") ?? "")",
                    movie.value(forKey: "title") as? String ?? "",
                    String(format: "%.1f", (movie.value(forKey: "rating") as? Double) ?? 0),
                    characters.compactMap { $0.value(forKey: "name") as? String }.sorted().joined(separator: ", ")
                )
            }
            print("\nMovies by year, page \(page + 1) (fetchLimit 4, fetchOffset \(request.fetchOffset)):")
            print(table.rendered)
        }
    }

    private func listActors(in context: NSManagedObjectContext) throws {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Actor")
        request.predicate = NSPredicate(format: "roles.@count >= %d", 2)
        request.sortDescriptors = [NSSortDescriptor(key: "born", ascending: true), NSSortDescriptor(key: "name", ascending: true)]
        var table = TextTable("Actor", "Born", "Roles")
        for actor in try context.fetch(request) {
            let roles = (actor.value(forKey: "roles") as? Set<NSManagedObject>) ?? []
            let titles = roles.compactMap { $0.value(forKeyPath: "movie.title") as? String }.sorted()
            table.append(actor.value(forKey: "name") as? String ?? "", "\(actor.value(forKey: "born") ?? "")", titles.joined(separator: ", "))
        }
        print("\nActors with at least two roles (predicate \"\(request.predicate?.predicateFormat ?? "")\"):")
        print(table.rendered)
    }

    private func findWithSubquery(in context: NSManagedObjectContext) throws {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
        request.predicate = NSPredicate(
            format: "SUBQUERY(characters, $c, $c.actor.born < %d).@count > 0 AND title BEGINSWITH[cd] %@", 1950, "a"
        )
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true, selector: Selector("localizedStandardCompare:"))]
        let titles = try context.fetch(request).compactMap { $0.value(forKey: "title") as? String }
        print("\nMovies whose title begins with \"a\" (any case or accent) and that cast an actor born before 1950,")
        print("run as one SQL query: \(request.predicate?.predicateFormat ?? "")")
        print("  " + titles.joined(separator: ", "))
    }

    private func countFilmsPerDecade(in context: NSManagedObjectContext) throws {
        let decade = NSExpressionDescription()
        decade.name = "decade"
        decade.expression = NSExpression(format: "year / 10 * 10")
        decade.expressionResultType = .integer32AttributeType
        let films = NSExpressionDescription()
        films.name = "films"
        films.expression = NSExpression(forFunction: "count:", arguments: [NSExpression(forKeyPath: "title")])
        films.expressionResultType = .integer32AttributeType
        let rating = NSExpressionDescription()
        rating.name = "rating"
        rating.expression = NSExpression(forFunction: "average:", arguments: [NSExpression(forKeyPath: "rating")])
        rating.expressionResultType = .doubleAttributeType

        let request = NSFetchRequest<NSDictionary>(entityName: "Movie")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = [decade, films, rating]
        request.propertiesToGroupBy = [decade]
        request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: true)]
        var table = TextTable("Decade", "Films", "Average rating")
        for row in try context.fetch(request) {
            table.append("\(row["decade"] ?? "")s", "\(row["films"] ?? "")", String(format: "%.2f", (row["rating"] as? Double) ?? 0))
        }
        print("\nFilms per decade: a dictionary fetch grouped by an expression, computed by the database:")
        print(table.rendered)
    }

    private func deleteMovie(in context: NSManagedObjectContext) throws {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
        request.predicate = NSPredicate(format: "title == %@", "Aliens")
        guard let movie = try context.fetch(request).first else { return }
        let before = try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Character"))
        context.delete(movie)
        try context.save()
        let after = try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Character"))
        print("\nDeleted \"Aliens\": its delete rule cascades, so characters went from \(before) to \(after).")
    }

    private func denyActorDelete(in context: NSManagedObjectContext) throws {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Actor")
        request.predicate = NSPredicate(format: "name == %@", "Harrison Ford")
        guard let actor = try context.fetch(request).first else { return }
        context.delete(actor)
        do {
            try context.save()
            print("\nUnexpected: deleting Harrison Ford was allowed.")
        } catch let error as NSError {
            print("\nDeleting Harrison Ford is denied while he has roles (Cocoa error \(error.code)):")
            print("  \(error.localizedDescription)")
            context.rollback()
        }
    }

    private func editInChildContext(of context: NSManagedObjectContext) throws {
        let editor = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        editor.parent = context
        // Dictionary results come from the store, whatever the context holds.
        let storedTitles = { () throws -> [String] in
            let request = NSFetchRequest<NSDictionary>(entityName: "Movie")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["title"]
            request.predicate = NSPredicate(format: "title BEGINSWITH 'Blade'")
            return try context.fetch(request).compactMap { $0["title"] as? String }
        }
        try editor.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.predicate = NSPredicate(format: "title == %@", "Blade Runner")
            try editor.fetch(request).first?.setValue("Blade Runner (The Final Cut)", forKey: "title")
            try editor.save()
        }
        print("\nA child context renamed \"Blade Runner\" and saved into its parent:")
        print("  the parent has unsaved changes: \(context.hasChanges); the store still has \(try storedTitles())")
        try context.save()
        print("  after the parent's save, the store has \(try storedTitles())")
    }

    private func showMetadata(of context: NSManagedObjectContext) throws {
        guard let store = context.persistentStoreCoordinator?.persistentStores.first else { return }
        let metadata = store.metadata ?? [:]
        let hashes = (metadata[NSStoreModelVersionHashesKey] as? [String: Data]) ?? [:]
        var table = TextTable("Entity", "Version hash (SHA-256, first bytes)")
        for (name, hash) in hashes.sorted(by: { $0.key < $1.key }) {
            table.append(name, hash.prefix(8).map { String(format: "%02x", $0) }.joined())
        }
        print("\nStore metadata: type \(store.type), UUID \(store.identifier ?? "?")")
        print(table.rendered)
    }
}
