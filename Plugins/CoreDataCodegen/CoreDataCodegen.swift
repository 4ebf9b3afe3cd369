import Foundation
import PackagePlugin

/// Generates the NSManagedObject subclasses of every `.xcdatamodeld` model among a target's
/// sources and resources, as Xcode's code generation does, by running `coredata generate`.
///
/// Each model gives one Swift file, `<Model>+CoreDataModel.swift`, compiled into the target. The
/// command reruns when any file of the model changes.
@main
struct CoreDataCodegen: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let tool = try context.tool(named: "coredata")
        return Self.modelBundles(in: target.sourceFiles.map(\.url)).map { model in
            let name = model.deletingPathExtension().lastPathComponent
            let output = context.pluginWorkDirectoryURL.appendingPathComponent("\(name)+CoreDataModel.swift")
            return .buildCommand(
                displayName: "Generating the Core Data classes of \(model.lastPathComponent)",
                executable: tool.url,
                arguments: ["generate", "--model", model.path, "--output-file", output.path],
                inputFiles: Self.files(in: model),
                outputFiles: [output]
            )
        }
    }

    /// The `.xcdatamodeld` bundles the files are, or are inside of, without repeats.
    private static func modelBundles(in files: [URL]) -> [URL] {
        var bundles: [URL] = []
        for file in files {
            let components = file.pathComponents
            guard let index = components.firstIndex(where: { $0.hasSuffix(".xcdatamodeld") }) else { continue }
            let bundle = URL(fileURLWithPath: NSString.path(withComponents: Array(components[...index])))
            if !bundles.contains(bundle) { bundles.append(bundle) }
        }
        return bundles
    }

    /// Every file inside a model bundle, so that editing any version reruns the generator.
    private static func files(in bundle: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: bundle, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return [bundle]
        }
        let files = enumerator.compactMap { $0 as? URL }.filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }
        return files.sorted { $0.path < $1.path }
    }
}
