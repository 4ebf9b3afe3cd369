import Foundation
import Testing

/// Runs the SwiftData examples (`Examples/SwiftDataTrips`, `Examples/SwiftDataLibrary`), built
/// with the tests, and checks what they print.
@Suite struct ExamplesTests {
    let store = TemporaryStore()

    private func run(_ program: String) throws -> String {
        let directory = try #require(Bundle.main.executableURL?.deletingLastPathComponent())
        let process = Process()
        process.executableURL = directory.appendingPathComponent(program)
        process.arguments = [store.directory.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }

    @Test func theTripPlannerPrintsItsTripsAndBookedActivities() throws {
        #expect(try run("SwiftDataTrips") == """
            Trips
              Autumn leaves — Kyoto, 2 activities, 180.0 in all
              Pastéis — Lisbon, 2 activities, 48.0 in all
            Booked
              Fado night (Lisbon)
              Fushimi Inari (Kyoto)

            """)
    }

    @Test func theLibraryPrintsItsBooksAndProlificAuthors() throws {
        #expect(try run("SwiftDataLibrary") == """
            Books
              1987 Mort by Terry Pratchett
              1990 Good Omens by Neil Gaiman & Terry Pratchett
              2002 Coraline by Neil Gaiman
            Authors of more than one book
              Neil Gaiman: 2 books
              Terry Pratchett: 2 books

            """)
    }
}
