import CoreData
import FuzzSupport

/// Opening hostile SQLite store files, and reading and saving what they hold.
///
/// The input is written as a `.sqlite` file and added to a coordinator with the model its
/// metadata matches, among the models of the test fixtures (the cinema model and the models of
/// the stores Apple's Core Data wrote); a file that matches none is opened with the cinema
/// model and `NSIgnorePersistentStoreVersioningOption`, so that its rows are still read. Every
/// object of every entity is fetched and each of its properties read, then one object of each
/// entity is deleted and the context saved, then a new object of each entity is inserted and the
/// context saved again. Any step may fail with an error; none may trap.
enum StoreFuzzer: FuzzTarget {
    private static let scratch = ScratchDirectory("store")

    /// The fixture models, read once from the checkout this file is in.
    private static let models: [NSManagedObjectModel] = modelPaths.compactMap { path in
        try? NSManagedObjectModel(validatingContentsOf: repositoryRoot.appendingPathComponent(path))
    }

    private static let modelPaths = [
        "Tests/CoreDataCodegenTests/Cinema.xcdatamodeld/Cinema 2.xcdatamodel",
        "Tests/CoreDataTests/Stores/SQLite/AppleStores/BookmarksModel 5.xcdatamodel",
        "Tests/CoreDataTests/Stores/SQLite/AppleStores/SampleModel2.xcdatamodel",
        "Tests/CoreDataTests/Stores/SQLite/AppleStores/TestModel.xcdatamodel",
    ]

    private static var repositoryRoot: URL {
        (0..<5).reduce(URL(fileURLWithPath: #filePath)) { url, _ in url.deletingLastPathComponent() }
    }

    static func run(_ input: Data) {
        guard let cinema = models.first, let url = try? scratch.reset().appendingPathComponent("Fuzzed.sqlite"),
              (try? input.write(to: url)) != nil else { return }
        let metadata = try? NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        if let metadata, let model = models.first(where: { $0.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) }) {
            open(url, with: model, options: nil)
        } else {
            open(url, with: cinema, options: [NSIgnorePersistentStoreVersioningOption: true])
        }
    }

    private static func open(_ url: URL, with model: NSManagedObjectModel, options: [AnyHashable: Any]?) {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        guard let store = try? coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: options) else { return }
        defer { try? coordinator.remove(store) }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        context.performAndWait {
            for entity in model.entities {
                guard let objects = try? readAll(entity, in: context) else { continue }
                objects.first.map(context.delete)
            }
            _ = try? context.save()
            // Inserted apart, since an object that fails validation fails its whole save.
            for entity in model.entities where !entity.isAbstract {
                _ = NSManagedObject(entity: entity, insertInto: context)
            }
            _ = try? context.save()
        }
    }

    /// Fetches every object of the entity and reads each of its properties, which fires its
    /// fault and those of its relationships.
    private static func readAll(_ entity: NSEntityDescription, in context: NSManagedObjectContext) throws -> [NSManagedObject] {
        guard let name = entity.name else { return [] }
        _ = try context.count(for: NSFetchRequest<NSManagedObject>(entityName: name))
        let objects = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: name))
        for object in objects {
            for property in object.entity.properties {
                switch object.value(forKey: property.name) {
                case let related as NSSet: _ = related.allObjects.compactMap { ($0 as? NSManagedObject)?.objectID }
                case let related as NSOrderedSet: _ = related.array.compactMap { ($0 as? NSManagedObject)?.objectID }
                default: break
                }
            }
        }
        return objects
    }

    /// A small store of the cinema model written by this project, with every kind of attribute
    /// and relationship the model has (`Fuzz/README.md` says how the seeds are made smaller).
    static func makeSeeds(in directory: URL) throws {
        guard let cinema = models.first else { throw CocoaError(.fileReadNoSuchFile) }
        let url = directory.appendingPathComponent("cinema.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: cinema)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            CinemaSample.insert(into: context)
            try context.save()
        }
        try coordinator.remove(store)
    }
}

/// The objects of the cinema store seed: every attribute type of the model, an ordered to-many,
/// a many-to-many, a to-many without inverse and both branches of each inheritance tree.
enum CinemaSample {
    static func insert(into context: NSManagedObjectContext) {
        let studio = object("Studio", in: context, ["name": "Ealing", "founded": Date(timeIntervalSinceReferenceDate: -3_000_000_000)])
        let mood = object("Mood", in: context, ["name": "Wry", "intensity": 3])
        let theme = object("Theme", in: context, ["name": "Heist"])
        let keyword = object("Keyword", in: context, ["label": "London"])
        let film = object("Film", in: context, [
            "title": "The Ladykillers", "releaseYear": 1955, "budget": NSDecimalNumber(string: "150000.50"), "identifier": UUID(),
            "isFeatured": true, "poster": Data([0x89, 0x50, 0x4E, 0x47]), "premiered": Date(timeIntervalSinceReferenceDate: -1_420_000_000),
            "rating": 7.6, "website": URL(string: "https://example.com/ladykillers")!, "boxOffice": 1_000_000, "runtime": 91,
            "studio": studio, "themes": NSSet(objects: theme, mood), "keywords": NSSet(object: keyword),
        ])
        let series = object("Series", in: context, ["title": "Porridge", "releaseYear": 1974, "seasons": 3, "studio": studio, "themes": NSSet(object: mood)])
        let performer = object("Performer", in: context, ["name": "Alec Guinness", "nicknames": ["Sir Alec"]])
        let credits = ["Professor Marcus", "Narrator"].map { role in object("Credit", in: context, ["role": role, "performer": performer]) }
        film.setValue(NSOrderedSet(array: credits), forKey: "credits")
        series.setValue(NSOrderedSet(object: object("Credit", in: context, ["role": "Fletcher"])), forKey: "credits")
        _ = object("Award", in: context, ["name": "BAFTA"])
    }

    private static func object(_ entity: String, in context: NSManagedObjectContext, _ values: [String: Any]) -> NSManagedObject {
        let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
        for (key, value) in values {
            object.setValue(value, forKey: key)
        }
        return object
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStore(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    StoreFuzzer.run(bytes, count)
}

#if !FUZZING
@main
enum Replay {
    static func main() throws {
        try StoreFuzzer.replay()
    }
}
#endif
