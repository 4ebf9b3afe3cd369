@testable import CoreDataCrashWriter
import CoreData
import Testing

/// The crash writer (`Tests/CoreDataCrashWriter`) running as a child process, which the build
/// puts beside the test bundle: its output read line by line, its commands sent on its input.
final class CrashWriterProcess {
    enum Mode {
        case saves(Int)
        case forever
        case commands
    }

    let process = Process()
    private let output = Pipe()
    private let input = Pipe()
    private let errorLog: URL
    private var unread = Data()
    /// Every line read so far.
    private(set) var lines: [WriterLine] = []

    /// Starts a writer making saves `first`, `first + 1`, … into a store, with persistent history
    /// tracking when `recordsHistory`; its standard error goes to `errorLog`. It runs in this
    /// process's environment without Core Data's debug switches (`COREDATA_…`), plus `environment`.
    init(store: URL, writer: String, first: Int, mode: Mode, recordsHistory: Bool = false, errorLog: URL, environment: [String: String] = [:]) throws {
        self.errorLog = errorLog
        // A command written to a writer that has exited must fail, not end the test process.
        signal(SIGPIPE, SIG_IGN)
        let directory = try #require(Bundle.main.executableURL?.deletingLastPathComponent())
        process.executableURL = directory.appendingPathComponent("CoreDataCrashWriter")
        let modeArgument = switch mode {
        case .saves(let count): "\(count)"
        case .forever: "forever"
        case .commands: "commands"
        }
        process.arguments = [store.path, writer, "\(first)", modeArgument] + (recordsHistory ? ["history"] : [])
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("COREDATA_") }.merging(environment) { $1 }
        try Data().write(to: errorLog)
        process.standardOutput = output
        process.standardInput = input
        process.standardError = try FileHandle(forWritingTo: errorLog)
        try process.run()
    }

    /// The next line the writer prints, or nil once its output has ended.
    func nextLine() -> WriterLine? {
        while true {
            if let end = unread.firstIndex(of: UInt8(ascii: "\n")) {
                let text = String(decoding: unread[..<end], as: UTF8.self)
                unread = Data(unread[(end + 1)...])
                let line = WriterLine(text) ?? .failed(code: -1, message: "unreadable line: \(text)")
                lines.append(line)
                return line
            }
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { return nil }
            unread += chunk
        }
    }

    /// Sends a command and returns the line that answers it, or nil when the writer has ended.
    func request(_ command: WriterLine.Command) -> WriterLine? {
        send(command) ? nextLine() : nil
    }

    /// Sends a command without waiting for its answer, so that several writers can work at once;
    /// returns whether the writer could be sent it.
    @discardableResult
    func send(_ command: WriterLine.Command) -> Bool {
        do {
            try input.fileHandleForWriting.write(contentsOf: Data((command.rawValue + "\n").utf8))
            return true
        } catch {
            return false
        }
    }

    /// Kills the writer with SIGKILL, wherever it is.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
    }

    /// Ends the writer's input, reads the rest of its output and waits for it to exit; returns
    /// every line it printed.
    @discardableResult
    func finish() -> [WriterLine] {
        try? input.fileHandleForWriting.close()
        while nextLine() != nil {}
        process.waitUntilExit()
        return lines
    }

    /// The numbers of the saves the writer reported committed, in order.
    var savedNumbers: [Int] {
        lines.compactMap { if case .saved(let number) = $0 { number } else { nil } }
    }

    /// The error the writer reported, if any.
    var failure: String? {
        lines.lazy.compactMap { if case .failed(let code, let message) = $0 { "error \(code): \(message)" } else { nil } }.first
    }

    /// What the writer wrote on its standard error.
    var errors: String {
        (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
    }
}
