import Foundation
import PackagePlugin

/// Generates the NSManagedObject subclasses of every model among a target's sources and
/// resources (an `.xcdatamodeld` bundle, or a lone `.xcdatamodel`), as Xcode's code generation
/// does, by running `coredata generate`.
///
/// Each model gives one Swift file compiled into the target, `Cinema+CoreDataModel.swift`
/// (`Models_Cinema+CoreDataModel.swift` when models of one name sit in different folders). The
/// command reruns when any file of the model changes.
@main
struct CoreDataCodegen: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let tool = try context.tool(named: "coredata")
        let models = Self.models(in: target.sourceFiles.map(\.url))
        return models.map { model in
            let output = context.pluginWorkDirectoryURL.appendingPathComponent(Self.outputName(of: model, among: models))
            return .buildCommand(
                displayName: "Generating the Core Data classes of \(model.lastPathComponent)",
                executable: tool.url,
                arguments: ["generate", "--model", model.path, "--output-file", output.path],
                inputFiles: Self.files(in: model),
                outputFiles: [output]
            )
        }
    }

    /// The models the files are, or are inside of, without repeats: the outermost directory
    /// named `.xcdatamodeld` or `.xcdatamodel` on each file's path.
    private static func models(in files: [URL]) -> [URL] {
        var models: [URL] = []
        for file in files {
            let components = file.standardizedFileURL.pathComponents
            guard let index = components.firstIndex(where: { $0.hasSuffix(".xcdatamodeld") || $0.hasSuffix(".xcdatamodel") }) else { continue }
            let model = URL(fileURLWithPath: NSString.path(withComponents: Array(components[...index])))
            if !models.contains(model) { models.append(model) }
        }
        return models
    }

    /// The generated file's name: the model's path from the folder that holds all the target's
    /// models, without its extension, folders joined by `_`, so that two models of one name in
    /// different folders do not collide.
    private static func outputName(of model: URL, among models: [URL]) -> String {
        let paths = models.map { $0.deletingPathExtension().pathComponents }
        var common = paths.first.map { $0.count - 1 } ?? 0
        for path in paths {
            common = min(common, zip(path, paths[0]).prefix { $0 == $1 }.count, path.count - 1)
        }
        return model.deletingPathExtension().pathComponents.dropFirst(common).joined(separator: "_") + "+CoreDataModel.swift"
    }

    /// Every file inside a model, so that editing any version reruns the generator.
    private static func files(in model: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: model, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return [model]
        }
        let files = enumerator.compactMap { $0 as? URL }.filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }
        return files.sorted { $0.path < $1.path }
    }
}
