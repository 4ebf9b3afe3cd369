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
            throw Self.failure(Self.message(for: error))
        }
        if destination.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) {
            print("\(storeURL.lastPathComponent) already matches the current version of \(modelURL.lastPathComponent); nothing to do.")
            return
        }
        guard let (versionName, source) = Self.sourceVersion(in: modelURL, matching: metadata) else {
            throw Self.failure("No version of \(modelURL.lastPathComponent) matches \(storeURL.lastPathComponent) (error \(NSMigrationMissingSourceModelError)).")
        }
        let mapping: NSMappingModel
        do {
            mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination)
        } catch {
            throw Self.failure(Self.message(for: error))
        }
        print("Migrating \(storeURL.lastPathComponent) from \(versionName) to the current version of \(modelURL.lastPathComponent):")
        MigrationPlanPrinter(source: source, destination: destination).lines(for: mapping).forEach { print($0) }
        guard !dryRun else { return }
        try migrate(storeURL, to: destination)
    }

    /// What an error says: its description and, for Core Data's errors, the reason it gives
    /// under `reason` (the description alone is Apple's, as general as "An error occurred during
    /// persistent store migration.").
    private static func message(for error: Error) -> String {
        let error = error as NSError
        guard let reason = error.userInfo["reason"] as? String else { return error.localizedDescription }
        return "\(error.localizedDescription) \(reason)"
    }

    /// The version of the model that wrote the store, by version name.
    private static func sourceVersion(in modelURL: URL, matching metadata: [String: Any]) -> (String, NSManagedObjectModel)? {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: modelURL.path)) ?? []).filter { $0.hasSuffix(".xcdatamodel") }.sorted()
        for name in names {
            guard let version = try? NSManagedObjectModel(validatingContentsOf: modelURL.appendingPathComponent(name)),
                  version.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) else { continue }
            return ((name as NSString).deletingPathExtension, version)
        }
        return nil
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
            throw Self.failure(Self.message(for: error))
        }
        bar.stop()
        print("Migrated \(storeURL.lastPathComponent).")
    }

    /// Reports what went wrong on standard error; the command then exits with status 1.
    private static func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        return ExitCode.failure
    }
}
