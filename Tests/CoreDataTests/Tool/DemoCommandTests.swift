import CoreData
import Testing

/// `coredata demo`, the README's first command, run as a program: it saves the movie database,
/// reopens and queries it, and ends with the games list's fetched results controller.
@Suite struct DemoCommandTests {
    @Test func theDemoRunsFromAFreshStoreEachTime() throws {
        let directory = try SQLiteScratchDirectory("demo")
        defer { directory.remove() }
        for round in 0..<2 {
            let run = try CoreDataToolRun.run(["demo", "--directory", directory.url.path])
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.errors.isEmpty)
            let removal = round == 0 ? "" : "Removed the store of a previous run.\n"
            #expect(run.output.hasPrefix("Store: \(directory.file("Movies.sqlite").path)\n\(removal)Saved 31 objects (8 movies, 10 actors and their characters) in one transaction.\n"))
            #expect(run.output.contains("  1977  Star Wars       8.6     Han Solo, Luke Skywalker"))
            #expect(run.output.contains("Deleted \"Aliens\": its delete rule cascades, so characters went from 13 to 11."))
            #expect(run.output.hasSuffix("Done. Run `coredata demo` again: it starts from a fresh store each time.\n"))
        }
    }
}
