import ArgumentParser

/// The `coredata` command-line tool.
@main
struct CoreDataTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coredata",
        abstract: "Core Data for Linux: demos and model and store tools.",
        subcommands: [Demo.self, Inspect.self, Query.self, HistoryCommand.self, Export.self, Import.self, ModelCommand.self, Generate.self, Migrate.self]
    )
}
