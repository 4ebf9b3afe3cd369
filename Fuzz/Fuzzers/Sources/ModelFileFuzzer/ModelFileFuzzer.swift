import CoreData
import FuzzSupport

/// The Xcode model-file reader on hostile `contents` files, and what a program does next with a
/// model it read.
///
/// The input is written as the `contents` file of a `.xcdatamodel` bundle and read with
/// `NSManagedObjectModel(validatingContentsOf:)`. A model that reads is walked (entities,
/// properties, version hashes, fetch request templates), then a SQLite store is created for it
/// with an object of each concrete entity saved and fetched back.
enum ModelFileFuzzer: FuzzTarget {
    private static let scratch = ScratchDirectory("model")

    static func run(_ input: Data) {
        guard let directory = try? scratch.reset() else { return }
        let bundle = directory.appendingPathComponent("Fuzzed.xcdatamodel", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: false)
            try input.write(to: bundle.appendingPathComponent("contents"))
        } catch {
            return
        }
        guard let model = try? NSManagedObjectModel(validatingContentsOf: bundle) else { return }
        walk(model)
        store(model, at: directory.appendingPathComponent("Fuzzed.sqlite"))
    }

    /// Reads every part of the model a program might ask for.
    private static func walk(_ model: NSManagedObjectModel) {
        _ = model.entityVersionHashesByName
        _ = model.fetchRequestTemplatesByName
        for configuration in model.configurations {
            _ = model.entities(forConfigurationName: configuration)
        }
        for entity in model.entities {
            _ = entity.versionHash
            _ = entity.propertiesByName
            _ = entity.relationshipsByName.mapValues { ($0.destinationEntity?.name, $0.inverseRelationship?.name) }
            _ = entity.subentities.map(\.name)
            _ = entity.uniquenessConstraints
            _ = entity.indexes.map(\.elements)
        }
    }

    /// Creates a SQLite store for the model, saves an object of each concrete entity and fetches
    /// every entity back; any step may fail with an error.
    private static func store(_ model: NSManagedObjectModel, at url: URL) {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        guard (try? coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)) != nil else { return }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        context.performAndWait {
            for entity in model.entities where !entity.isAbstract {
                _ = NSManagedObject(entity: entity, insertInto: context)
            }
            _ = try? context.save()
            for entity in model.entities {
                guard let name = entity.name else { continue }
                _ = try? context.fetch(NSFetchRequest<NSManagedObject>(entityName: name))
            }
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModelFile(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    ModelFileFuzzer.run(bytes, count)
}

#if !FUZZING
@main
enum Replay {
    static func main() throws {
        try ModelFileFuzzer.replay()
    }
}
#endif
