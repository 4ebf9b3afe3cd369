import ArgumentParser
import CoreData

/// `coredata model`: a model's entities and version hashes, or what changed between two
/// versions and whether lightweight migration can infer the mapping.
struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Prints a model's entities, properties and version hashes, or, with --diff, what changed between two versions and whether lightweight migration can infer the mapping."
    )

    @Argument(help: "The model: an .xcdatamodeld (its current version) or an .xcdatamodel version.")
    var model: String

    @Option(help: "Another version to compare with: the changes from MODEL to it are printed.")
    var diff: String?

    func run() throws {
        let source = try ModelFileArgument.currentModel(at: model)
        guard let diff else {
            let versions = (try? ModelFileArgument.versions(at: model)) ?? []
            let current = versions.first { $0.model.versionChecksum == source.versionChecksum }?.name
            let history = versions.count > 1 ? " (versions: \(versions.map(\.name).joined(separator: ", ")); current: \(current ?? "?"))" : ""
            print("Model \(URL(fileURLWithPath: model).lastPathComponent)\(history)")
            ModelPrinter(model: source).lines.forEach { print($0) }
            return
        }
        let destination = try ModelFileArgument.currentModel(at: diff)
        print(Self.differences(from: source, to: destination, named: (model, diff)).joined(separator: "\n"))
    }

    /// What changed, as a lightweight migration's plan when a mapping can be inferred, and as the
    /// entities whose version hashes differ otherwise.
    private static func differences(from source: NSManagedObjectModel, to destination: NSManagedObjectModel, named names: (String, String)) -> [String] {
        let title = "From \(URL(fileURLWithPath: names.0).lastPathComponent) to \(URL(fileURLWithPath: names.1).lastPathComponent):"
        guard source.versionChecksum != destination.versionChecksum else {
            return [title, "  the version hashes are the same: a store of one opens with the other, no migration."]
        }
        do {
            let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination)
            return [title] + MigrationPlanPrinter(source: source, destination: destination).lines(for: mapping)
                + ["Lightweight migration can infer this mapping."]
        } catch {
            let sourceHashes = source.entityVersionHashesByName
            let destinationHashes = destination.entityVersionHashesByName
            let changed = Set(sourceHashes.keys).union(destinationHashes.keys).sorted().compactMap { name -> String? in
                switch (sourceHashes[name], destinationHashes[name]) {
                case (nil, _): "  + \(name): new entity"
                case (_, nil): "  - \(name): removed"
                case let (old, new) where old != new: "  ~ \(name): changed"
                default: nil
                }
            }
            return [title] + changed + ["Lightweight migration cannot infer a mapping: \(CommandFailure.message(for: error))"]
        }
    }
}
