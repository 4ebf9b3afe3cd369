@testable import CoreData
import Testing

/// The `coredata` tool run as a program (the build puts it beside the tests), and what it printed.
struct CoreDataToolRun {
    let status: Int32
    let output: String
    let errors: String

    static var tool: URL {
        get throws {
            try #require(Bundle.main.executableURL?.deletingLastPathComponent()).appendingPathComponent("coredata")
        }
    }

    /// The tool's process with `arguments`, not started, its output and errors piped.
    static func process(_ arguments: [String], in directory: URL? = nil) throws -> (Process, output: Pipe, errors: Pipe) {
        let process = Process()
        process.executableURL = try tool
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        return (process, output, errors)
    }

    /// Runs the tool with `arguments` (in `directory`, when given) to its end.
    static func run(_ arguments: [String], in directory: URL? = nil) throws -> CoreDataToolRun {
        let (process, output, errors) = try process(arguments, in: directory)
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complained = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CoreDataToolRun(status: process.terminationStatus, output: String(decoding: printed, as: UTF8.self), errors: String(decoding: complained, as: UTF8.self))
    }
}
