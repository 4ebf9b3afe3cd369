import ArgumentParser
import CoreData

/// `coredata query`: fetches objects of an entity from a store through Core Data's API, as an
/// app would, and prints them.
struct Query: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fetches objects of an entity from a store through Core Data's API and prints them as a table, JSON or CSV."
    )

    @Argument(help: "The store: a file (SQLite, binary or XML), or a PostgreSQL store, postgres://user@host:port/database?schema=name.")
    var store: String

    @Option(help: "The model (.xcdatamodeld or .xcdatamodel); the version that matches the store is used.")
    var model: String

    @Option(help: "The entity whose objects are fetched.")
    var entity: String

    @Option(help: "A predicate, in NSPredicate's format language (\"year > 1990 AND title BEGINSWITH[c] 'a'\").")
    var predicate: String?

    // Unconditional, so that a descending key alone (`--sort -year`) is a value, not an option.
    @Option(parsing: .unconditional, help: "Sort keys, comma-separated; a leading - sorts descending (\"year,-title\").")
    var sort: String?

    @Option(help: "The most objects to print.")
    var limit: Int?

    @Option(help: "The properties to print, comma-separated; every property by default.")
    var keys: String?

    @Option(help: "The output: table, json or csv.")
    var format: QueryOutput = .table

    func run() throws {
        let namedStore = try NamedStore(store)
        let model = try ModelFileArgument.version(at: self.model, matching: namedStore)
        guard let entity = model.entitiesByName[self.entity] else {
            throw CommandFailure.report("The model has no entity \(self.entity) (its entities: \(model.entitiesByName.keys.sorted().joined(separator: ", "))).")
        }
        let properties = try self.properties(of: entity)
        let request = try fetchRequest(for: entity)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = try namedStore.open(with: model)
        let rows: [(uri: String, cells: [QueryCell])]
        do {
            rows = try context.performAndWait {
                try context.fetch(request).map { object in
                    (object.objectID.uriRepresentation().absoluteString, properties.map { QueryCell(object.value(forKey: $0.name), of: $0) })
                }
            }
        } catch {
            throw CommandFailure.report(error)
        }
        print(try format.render(columns: properties.map(\.name), rows: rows))
    }

    /// The properties `--keys` names, or all of the entity's, by name.
    private func properties(of entity: NSEntityDescription) throws -> [NSPropertyDescription] {
        guard let keys else { return entity.properties.sorted { $0.name < $1.name } }
        return try Self.list(keys).map { key in
            guard let property = entity.propertiesByName[key] else {
                throw CommandFailure.report("The entity \(entity.name ?? "") has no property \(key).")
            }
            return property
        }
    }

    private func fetchRequest(for entity: NSEntityDescription) throws -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity.name ?? "")
        if let predicate {
            do {
                request.predicate = try NSPredicate(validatingFormat: predicate)
            } catch {
                throw CommandFailure.report("The predicate cannot be read: \(CommandFailure.message(for: error))")
            }
        }
        request.sortDescriptors = sort.map { Self.list($0).map { key in
            key.hasPrefix("-") ? NSSortDescriptor(key: String(key.dropFirst()), ascending: false) : NSSortDescriptor(key: key, ascending: true)
        } }
        if let limit {
            guard limit >= 0 else { throw CommandFailure.report("--limit must not be negative.") }
            request.fetchLimit = limit
        }
        return request
    }

    private static func list(_ argument: String) -> [String] {
        argument.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
