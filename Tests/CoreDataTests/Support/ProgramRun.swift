import CoreData
import Testing

/// A program the build puts beside the tests (the `coredata` tool, the examples, probes), run
/// to its end, and what it printed.
struct ProgramRun {
    let status: Int32
    let output: String
    let errors: String

    static func executable(_ program: String) throws -> URL {
        try #require(Bundle.main.executableURL?.deletingLastPathComponent()).appendingPathComponent(program)
    }

    /// The program's process with `arguments`, not started, its output and errors piped.
    static func process(_ program: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil) throws -> (Process, output: Pipe, errors: Pipe) {
        let process = Process()
        process.executableURL = try executable(program)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if let environment { process.environment = environment }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        return (process, output, errors)
    }

    /// Runs the program with `arguments` (in `directory`, with `environment`, when given).
    static func run(_ program: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil) throws -> ProgramRun {
        let (process, output, errors) = try process(program, arguments, in: directory, environment: environment)
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complained = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ProgramRun(status: process.terminationStatus, output: String(decoding: printed, as: UTF8.self), errors: String(decoding: complained, as: UTF8.self))
    }
}

/// The `coredata` tool, run as a program.
enum CoreDataToolRun {
    static func process(_ arguments: [String]) throws -> (Process, output: Pipe, errors: Pipe) {
        try ProgramRun.process("coredata", arguments)
    }

    static func run(_ arguments: [String]) throws -> ProgramRun {
        try ProgramRun.run("coredata", arguments)
    }
}
