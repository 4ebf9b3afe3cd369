import ArgumentParser
import CoreData

/// `coredata export`: every object of a store as JSON, a file per entity, relationships by URI,
/// read a page at a time so that memory does not grow with the store.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Writes every object of a store as JSON, one file per entity (<Entity>.json, an object per line), relationships by URI."
    )

    @Argument(help: "The store: a file (SQLite, binary or XML), or a PostgreSQL store, postgres://user@host:port/database?schema=name.")
    var store: String

    @Option(help: "The model (.xcdatamodeld or .xcdatamodel); the version that matches the store is used.")
    var model: String

    @Option(name: .customLong("to"), help: "The directory the files are written to (created if missing).")
    var directory: String

    /// The objects read, written and let go at a time.
    static let pageSize = 500

    func run() throws {
        let namedStore = try NamedStore(store)
        let model = try ModelFileArgument.version(at: self.model, matching: namedStore)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = try namedStore.open(with: model)
        let output = URL(fileURLWithPath: directory)
        let entities = model.entities.filter { !$0.isAbstract }.sorted { ($0.name ?? "") < ($1.name ?? "") }
        do {
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
            let counts = try context.performAndWait { try entities.map { try context.count(for: Self.request(for: $0)) } }
            let progress = Progress(totalUnitCount: Int64(counts.reduce(0, +)))
            let bar = ProgressBar(progress)
            bar.start()
            defer { bar.stop() }
            for entity in entities {
                try export(entity, from: context, to: EntityFile.url(of: entity, in: output), progress: progress)
            }
            print("Exported \(progress.totalUnitCount) objects of \(entities.count) entities to \(output.path).")
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw CommandFailure.report(error)
        }
    }

    /// The objects of exactly one entity (its sub-entities have files of their own), in a fixed
    /// order, so that pages follow each other.
    private static func request(for entity: NSEntityDescription) -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity.name ?? "")
        request.includesSubentities = false
        return request
    }

    private func export(_ entity: NSEntityDescription, from context: NSManagedObjectContext, to url: URL, progress: Progress) throws {
        let writer = try EntityFile.Writer(url: url)
        let properties = entity.properties.filter { !$0.isTransient && !($0 is NSFetchedPropertyDescription) }
        var offset = 0
        while true {
            let written = try context.performAndWait {
                let request = Self.request(for: entity)
                request.fetchOffset = offset
                request.fetchLimit = Self.pageSize
                let page = try context.fetch(request)
                for object in page {
                    try writer.append(Self.json(of: object, properties: properties))
                }
                // The page's objects go: the next page's take their place.
                context.reset()
                return page.count
            }
            offset += written
            progress.completedUnitCount += Int64(written)
            if written < Self.pageSize { break }
        }
        try writer.close()
    }

    /// An object as JSON: its URI under `objectID`, then each property, `null` for none.
    private static func json(of object: NSManagedObject, properties: [NSPropertyDescription]) -> [String: Any] {
        var json: [String: Any] = ["objectID": object.objectID.uriRepresentation().absoluteString]
        for property in properties {
            let value = object.value(forKey: property.name)
            switch (property, value) {
            case (_, nil):
                json[property.name] = NSNull()
            case (let attribute as NSAttributeDescription, let value?):
                json[property.name] = AttributeJSON.json(value, for: attribute)
            case (let relationship as NSRelationshipDescription, let value?):
                json[property.name] = RelationshipJSON.json(value, for: relationship)
            default:
                continue
            }
        }
        return json
    }
}
