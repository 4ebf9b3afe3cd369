import Foundation

/// One W12-postgresql run seen from the benchmark: `writers` child processes
/// (``ScalingWriter``), each saving its share of the items of the run's schema. Each sets up
/// (connection or Core Data stack, its objects fetched) and says `ready`; the run tells them all
/// `go` and ends when the last has said `done`, so that neither process start-up nor set-up is
/// measured.
final class ScalingWriters {
    /// A writer process and the pipes of its standard input and output.
    private struct Writer {
        var process: Process
        var input: FileHandle
        var output: FileHandle
    }

    private let writers: [Writer]

    /// W12's peer of `family` with `writers` processes. Set-up (not measured): a schema of the
    /// run's own (a copy of the template), the writers started and ready. After the run, the
    /// row count and attribute sum of the schema are read back. Tear-down: the writers' exit
    /// awaited, the schema dropped.
    static func peer(name: String, family: PeerFamily, writers: Int) -> Peer {
        Peer(name: name, family: family) { input in
            let schema = try PostgreSQLSchema(copying: input.templateSchema)
            let group: ScalingWriters
            do {
                group = try ScalingWriters(family: family, schema: schema.name, items: input.count, writers: writers)
            } catch {
                schema.drop()
                throw error
            }
            return PreparedRun(
                body: group.run,
                tearDown: {
                    defer { schema.drop() }
                    try group.finish()
                },
                storeChecksum: { try schema.integers(PostgreSQLTables.itemStoreChecksumSQL) })
        }
    }

    /// Starts `writers` writers of `family` on the store of `items` items in `schema` and waits
    /// until each is ready; stops those started when one fails.
    init(family: PeerFamily, schema: String, items: Int, writers: Int) throws {
        var started: [Writer] = []
        do {
            for writer in 0..<writers {
                let process = try ChildProcess.bench(
                    ScalingWriter.subcommand, arguments: [family.rawValue, schema, String(items), String(writers), String(writer)])
                let input = Pipe()
                let output = Pipe()
                process.standardInput = input
                process.standardOutput = output
                try process.run()
                started.append(Writer(process: process, input: input.fileHandleForWriting, output: output.fileHandleForReading))
            }
            for writer in started {
                try Self.expect("ready", from: writer)
            }
        } catch {
            for writer in started {
                writer.process.terminate()
                writer.process.waitUntilExit()
            }
            throw error
        }
        self.writers = started
    }

    /// The measured body: `go` to every writer, then each one's `done`. Returns the saves made.
    func run() throws -> Int64 {
        for writer in writers {
            writer.input.write(Data("go\n".utf8))
        }
        var saves: Int64 = 0
        for writer in writers {
            let line = try Self.expect("done", from: writer)
            saves += Int64(line.split(separator: " ").last ?? "") ?? 0
        }
        return saves
    }

    /// Closes the writers' input (a writer still waiting for `go` gives up) and waits for them
    /// to exit; fails unless every one exited with status 0.
    func finish() throws {
        for writer in writers {
            try? writer.input.close()
        }
        for writer in writers {
            writer.process.waitUntilExit()
        }
        if let failed = writers.first(where: { $0.process.terminationReason != .exit || $0.process.terminationStatus != 0 }) {
            throw BenchmarkError.io("a W12 writer process failed (status \(failed.process.terminationStatus))")
        }
    }

    /// Reads the writer's next line and returns it if it starts with `word`.
    @discardableResult
    private static func expect(_ word: String, from writer: Writer) throws -> String {
        guard let line = readLine(from: writer.output), line.hasPrefix(word) else {
            throw BenchmarkError.io("a W12 writer process ended before saying \(word) (see its error above)")
        }
        return line
    }

    /// One line from a pipe, without its newline; `nil` at the end of the stream. Byte by byte:
    /// the writers say a few words per run.
    private static func readLine(from handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(handle.fileDescriptor, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") {
                return String(decoding: bytes, as: UTF8.self)
            }
            bytes.append(byte)
        }
        return nil
    }
}

/// A W12-postgresql writer, the child process: the `bench` executable started again with a
/// hidden first argument. It sets up its peer's writer (``RawPostgresNIOPeers/scalingWriter(schema:targets:)``
/// or ``CoreDataPeers/scalingWriter(schema:targets:)``) on its share of the items
/// (``Workload/w12Targets(count:writers:writer:)``), says `ready`, waits for `go`, saves, says
/// `done <saves>` and tears down.
enum ScalingWriter {
    /// The hidden first argument that makes `bench` a writer.
    static let subcommand = "__w12-postgresql-writer"

    /// The child's entry point: `arguments` are those after ``subcommand``: the peer family
    /// (`ours` or `raw`), the schema, the store's item count, the number of writers and this
    /// writer's index. Returns the exit status.
    static func main(arguments: [String]) -> Int32 {
        guard arguments.count == 5, let family = PeerFamily(rawValue: arguments[0]),
              let count = Int(arguments[2]), let writers = Int(arguments[3]), let writer = Int(arguments[4])
        else {
            Console.error("bench: \(subcommand) takes a peer family, a schema, an item count, a writer count and a writer index")
            return 2
        }
        do {
            let targets = Workload.w12Targets(count: count, writers: writers, writer: writer)
            let prepared = try prepare(family, schema: arguments[1], targets: targets)
            Console.line("ready")
            guard readLine() == "go" else {
                try prepared.tearDown()
                return 1
            }
            let saves = try prepared.body()
            Console.line("done \(saves)")
            try prepared.tearDown()
            return 0
        } catch {
            Console.error("bench: W12 writer \(writer): \(error)")
            return 1
        }
    }

    private static func prepare(_ family: PeerFamily, schema: String, targets: [Int]) throws -> PreparedRun {
        switch family {
        case .raw:
            return try RawPostgresNIOPeers.scalingWriter(schema: schema, targets: targets)
        case .ours:
            #if canImport(CoreDataPostgreSQL)
            return try CoreDataPeers.scalingWriter(schema: schema, targets: targets)
            #else
            throw BenchmarkError.usage("the ours peers are not compiled in")
            #endif
        case .grdb:
            throw BenchmarkError.usage("W12 has no GRDB writer")
        }
    }
}
