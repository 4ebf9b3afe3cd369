import ArgumentParser
import CoreData

/// `coredata migrate`: migrates a SQLite store to the current version of its model, as an app's
/// lightweight migration does, after printing the inferred plan.
struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Migrates a SQLite store to the current version of a model, printing the inferred plan first."
    )

    @Option(help: "The store file (.sqlite).")
    var store: String

    @Option(help: "The model: an .xcdatamodeld bundle; the store's version must be one of its versions.")
    var model: String

    @Flag(help: "Print the plan without migrating.")
    var dryRun = false

    func run() throws {
        let storeURL = URL(fileURLWithPath: store)
        let modelURL = URL(fileURLWithPath: model)
        let destination: NSManagedObjectModel
        let metadata: [String: Any]
        do {
            destination = try NSManagedObjectModel(validatingContentsOf: modelURL)
            metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: storeURL)
        } catch {
            throw CommandFailure.report(error)
        }
        if destination.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) {
            print("\(storeURL.lastPathComponent) already matches the current version of \(modelURL.lastPathComponent); nothing to do.")
            return
        }
        guard let (versionName, source) = Self.sourceVersion(in: modelURL, matching: metadata) else {
            throw CommandFailure.report("No version of \(modelURL.lastPathComponent) matches \(storeURL.lastPathComponent) (error \(NSMigrationMissingSourceModelError)).")
        }
        let mapping: NSMappingModel
        do {
            mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination)
        } catch {
            throw CommandFailure.report(error)
        }
        print("Migrating \(storeURL.lastPathComponent) from \(versionName) to the current version of \(modelURL.lastPathComponent):")
        MigrationPlanPrinter(source: source, destination: destination).lines(for: mapping).forEach { print($0) }
        guard !dryRun else { return }
        try migrate(storeURL, to: destination)
    }


    /// The version of the model that wrote the store, by version name.
    private static func sourceVersion(in modelURL: URL, matching metadata: [String: Any]) -> (String, NSManagedObjectModel)? {
        let versions = (try? NSManagedObjectModel.versions(inModelAt: modelURL)) ?? []
        return versions.first { $0.model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) }
    }

    /// Opens the store with migration on, drawing the migration's progress as a bar.
    private func migrate(_ storeURL: URL, to destination: NSManagedObjectModel) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: destination)
        let progress = Progress(totalUnitCount: 1)
        let bar = ProgressBar(progress)
        bar.start()
        progress.becomeCurrent(withPendingUnitCount: 1)
        defer { progress.resignCurrent() }
        do {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: storeURL, options: [
                NSMigratePersistentStoresAutomaticallyOption: true,
                NSInferMappingModelAutomaticallyOption: true,
            ])
        } catch {
            bar.stop()
            throw CommandFailure.report(error)
        }
        bar.stop()
        print("Migrated \(storeURL.lastPathComponent).")
    }
}
