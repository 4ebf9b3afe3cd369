import ArgumentParser
import CoreData
import CoreDataCodeGeneration

/// `coredata generate`: writes the NSManagedObject subclasses of a model file, as Xcode's code
/// generation does (see `ManagedObjectCodeGenerator`).
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Writes the NSManagedObject subclasses of a model, as Xcode's code generation does."
    )

    @Option(help: "The model: an .xcdatamodeld bundle (its current version) or an .xcdatamodel directory.")
    var model: String

    @Option(help: "The directory to write into, one or two files per entity, named as Xcode names them.")
    var output: String?

    @Option(help: "The one file to write everything into instead (what the CoreDataCodegen plugin does).")
    var outputFile: String?

    func validate() throws {
        guard (output == nil) != (outputFile == nil) else {
            throw ValidationError("Give either --output or --output-file.")
        }
    }

    func run() throws {
        let generator: ManagedObjectCodeGenerator
        do {
            generator = ManagedObjectCodeGenerator(model: try NSManagedObjectModel(validatingContentsOf: URL(fileURLWithPath: model)))
        } catch {
            throw CommandFailure.report(error.localizedDescription)
        }
        do {
            if let outputFile {
                let url = URL(fileURLWithPath: outputFile)
                try generator.sourceFile(named: url.lastPathComponent).write(to: url)
            } else if let output {
                for url in try generator.writeSourceFiles(to: URL(fileURLWithPath: output, isDirectory: true)) {
                    print(url.path)
                }
            }
        } catch let error as NSError where error.domain == NSCocoaErrorDomain && error.code == NSCoreDataError {
            throw CommandFailure.report(error.localizedDescription)
        } catch {
            throw CommandFailure.report("Cannot write \(outputFile ?? output ?? ""): \(error.localizedDescription)")
        }
    }
}
