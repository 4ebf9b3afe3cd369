import Foundation

/// The `bench` executable started again as a child process, with a hidden first argument that
/// makes it a workload's helper instead of the benchmark (W11's writer, W12-postgresql's
/// writers), so that no other product is needed.
enum ChildProcess {
    /// A process that runs this executable with `subcommand` and `arguments`; not started yet.
    static func bench(_ subcommand: String, arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = [subcommand] + arguments
        return process
    }
}
