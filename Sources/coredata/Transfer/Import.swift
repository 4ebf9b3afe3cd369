import ArgumentParser
import CoreData

/// `coredata import`: the files `coredata export` writes, read into a store a page at a time.
///
/// A first pass inserts the objects with their attributes and the to-one relationships whose
/// destinations are in already (entities are read destinations first where a mandatory to-one
/// relationship needs it); a second pass sets the other relationships. Each page is saved and
/// let go, so that only the map from exported URIs to new object IDs grows with the store.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Reads the files coredata export writes (<Entity>.json) into a store, creating it when it is missing."
    )

    @Argument(help: "The directory of <Entity>.json files.")
    var directory: String

    @Option(help: "The model (.xcdatamodeld or .xcdatamodel) whose current version the store has.")
    var model: String

    @Option(name: .customLong("into"), help: "The store to import into: a file, or a PostgreSQL store, postgres://user@host:port/database?schema=name.")
    var store: String

    @Option(help: "The type of a store file: sqlite, binary or xml.")
    var type: StoreTypeArgument = .sqlite

    func run() throws {
        let model = try ModelFileArgument.currentModel(at: self.model)
        let input = URL(fileURLWithPath: directory)
        let files = try Self.entityFiles(in: input, of: model)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let server = PostgreSQLStoreAddress(store)
        do {
            if let server {
                try coordinator.addPersistentStore(ofType: try server.storeType(), configurationName: nil, at: server.url, options: server.options)
            } else {
                try coordinator.addPersistentStore(ofType: type.storeType, configurationName: nil, at: URL(fileURLWithPath: store), options: nil)
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw CommandFailure.report(error)
        }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let bytes = files.reduce(0) { $0 + ((try? $1.url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0) }
        let progress = Progress(totalUnitCount: Int64(2 * bytes))
        let bar = ProgressBar(progress)
        bar.start()
        var importer = ObjectImporter(context: context)
        do {
            for file in files { try importer.insertObjects(of: file.entity, from: file.url, progress: progress) }
            for file in files { try importer.setRelationships(of: file.entity, from: file.url, progress: progress) }
        } catch {
            bar.stop()
            throw error is ExitCode ? error : CommandFailure.report(error)
        }
        bar.stop()
        print("Imported \(importer.importedCount) objects of \(files.count) entities into \(server?.description ?? store).")
    }

    /// The entity files of the directory, in the order the first pass reads them; a `.json`
    /// file that names no entity of the model is refused.
    private static func entityFiles(in directory: URL, of model: NSManagedObjectModel) throws -> [(entity: NSEntityDescription, url: URL)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else {
            throw CommandFailure.report("Cannot read the directory \(directory.path).")
        }
        let entities = model.entitiesByName
        var files: [(entity: NSEntityDescription, url: URL)] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            guard let entity = entities[String(name.dropLast(5))], !entity.isAbstract else {
                throw CommandFailure.report("\(name) names no entity of the model.")
            }
            files.append((entity, directory.appendingPathComponent(name)))
        }
        return Self.destinationsFirst(files)
    }

    /// The files in an order where the destinations of mandatory to-one relationships come
    /// before their sources, when the relationships allow one (a cycle keeps the name order).
    private static func destinationsFirst(_ files: [(entity: NSEntityDescription, url: URL)]) -> [(entity: NSEntityDescription, url: URL)] {
        var ordered: [(entity: NSEntityDescription, url: URL)] = []
        var remaining = files
        while !remaining.isEmpty {
            let placed = Set(ordered.map { $0.entity.name ?? "" })
            let ready = remaining.firstIndex { file in
                file.entity.relationshipsByName.values.allSatisfy { relationship in
                    relationship.isToMany || relationship.isOptional || relationship.destinationEntity.map { destination in
                        destination === file.entity || placed.contains(destination.name ?? "") || !remaining.contains { $0.entity.isKindOf(entity: destination) }
                    } ?? true
                }
            } ?? 0
            ordered.append(remaining.remove(at: ready))
        }
        return ordered
    }
}

/// The store types `coredata import` writes.
enum StoreTypeArgument: String, ExpressibleByArgument, CaseIterable {
    case sqlite, binary, xml

    var storeType: String {
        switch self {
        case .sqlite: NSSQLiteStoreType
        case .binary: NSBinaryStoreType
        case .xml: NSXMLStoreType
        }
    }
}
