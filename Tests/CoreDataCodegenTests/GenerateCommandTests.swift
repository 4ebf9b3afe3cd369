import CoreData
import Testing

/// `coredata generate`, run as a program: the build puts it beside the tests, since the plugin
/// this target uses runs it.
@Suite struct GenerateCommandTests {
    private struct Outcome {
        let status: Int32
        let output: String
        let errors: String
    }

    private static func run(_ arguments: [String]) throws -> Outcome {
        let directory = try #require(Bundle.main.executableURL?.deletingLastPathComponent())
        let process = Process()
        process.executableURL = directory.appendingPathComponent("coredata")
        process.arguments = ["generate"] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complained = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: String(decoding: printed, as: UTF8.self), errors: String(decoding: complained, as: UTF8.self))
    }

    private static var model: URL {
        Bundle.module.resourceURL!.appendingPathComponent("Cinema.xcdatamodeld")
    }

    @Test func writesXcodesFilesIntoADirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("Generate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try Self.run(["--model", Self.model.path, "--output", directory.path])
        #expect(outcome.status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names.contains("Film+CoreDataClass.swift"))
        #expect(names.contains("Series+CoreDataProperties.swift"))
        #expect(!names.contains("Series+CoreDataClass.swift"))
        #expect(!names.contains { $0.hasPrefix("Theme") })
        #expect(outcome.output.split(separator: "\n").count == names.count)
    }

    @Test func aMissingModelIsReportedAndNothingIsWritten() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("Generate-\(UUID().uuidString)")
        let outcome = try Self.run(["--model", "/nonexistent/Gone.xcdatamodeld", "--output", directory.path])
        #expect(outcome.status == 1)
        #expect(outcome.errors.hasPrefix("error: /nonexistent/Gone.xcdatamodeld: "))
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    @Test func aFileThatCannotBeWrittenIsReportedWithItsPath() throws {
        let outcome = try Self.run(["--model", Self.model.path, "--output-file", "/nonexistent/folder/Cinema.swift"])
        #expect(outcome.status == 1)
        #expect(outcome.errors.hasPrefix("error: Cannot write /nonexistent/folder/Cinema.swift: "))
    }

    @Test func exactlyOneDestinationIsRequired() throws {
        let outcome = try Self.run(["--model", Self.model.path])
        #expect(outcome.status != 0)
        #expect(outcome.errors.contains("Give either --output or --output-file."))
    }
}
