import ArgumentParser
import CoreData

/// `coredata inspect`: what a store file holds, and whether a model matches it.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Shows a store's type, UUID, metadata, entities with their rows and version hashes, history, external data and files, and whether a model matches it."
    )

    @Argument(help: "The store: a file (SQLite, binary or XML), or a PostgreSQL store, postgres://user@host:port/database?schema=name.")
    var store: String

    @Option(help: "A model (.xcdatamodeld or .xcdatamodel) to compare with the store; without it, a model near the store or in the current directory that matches it is looked for.")
    var model: String?

    @Flag(help: "Print the report as JSON.")
    var json = false

    func run() throws {
        let namedStore = try NamedStore(store)
        let report: StoreReport
        do {
            report = try StoreReport(store: namedStore, model: try comparedModel(for: namedStore))
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw CommandFailure.report(error)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(report.text)
        }
    }

    /// The model named, at its current version, or the version of a model near the store that
    /// matches it.
    private func comparedModel(for store: NamedStore) throws -> (path: String, version: String?, model: NSManagedObjectModel)? {
        if let model {
            return (model, nil, try ModelFileArgument.currentModel(at: model))
        }
        return ModelFileArgument.version(matching: store).map { ($0.file.path, $0.version, $0.model) }
    }
}
