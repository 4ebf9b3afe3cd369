import BenchSQLite
import Foundation

/// W11's writer, "process A": the `bench` executable itself, started again with a hidden first
/// argument, so that no other product is needed. It opens the store file with the raw SQLite C
/// API and commits W10's one-attribute update of one item at a time, in autocommit mode, pausing
/// between commits (``Workload/w11Pause(beforeCommit:)``) so that their notifications cannot
/// coalesce. It logs when each commit began and when its `sqlite3_step` returned, the commit
/// done, on `CLOCK_MONOTONIC`: one clock for every process on Linux, so the reader's times can
/// be subtracted from them.
enum RemoteCommitWriter {
    /// The hidden first argument that makes `bench` the writer.
    static let subcommand = "__w11-remote-writer"

    /// When one commit began and when it had returned, in monotonic seconds.
    struct CommitTimes: Sendable {
        var begin: Double
        var end: Double
    }

    /// Starts the writer in a child process on the store at `storeURL`, waits for it to exit and
    /// returns the times of its `commits` commits, in order.
    static func run(storeURL: URL, settings: StoreSettings, commits: Int) throws -> [CommitTimes] {
        let log = storeURL.deletingLastPathComponent().appendingPathComponent("writer-times.txt")
        let process = try ChildProcess.bench(
            subcommand, arguments: [storeURL.path, String(commits), settings.journalMode, settings.synchronous, log.path])
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw BenchmarkError.io("the W11 writer process failed (status \(process.terminationStatus))")
        }
        let times = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map { line in
            let fields = line.split(separator: " ").compactMap { Double($0) }
            guard fields.count == 2 else { throw BenchmarkError.io("the W11 writer logged \"\(line)\"") }
            return CommitTimes(begin: fields[0], end: fields[1])
        }
        guard times.count == commits else {
            throw BenchmarkError.io("the W11 writer logged \(times.count) of \(commits) commits")
        }
        return times
    }

    /// The child's entry point: `arguments` are those after ``subcommand``: the store path, the
    /// number of commits, the journal mode, the synchronous level and the path of the log to write.
    /// Returns the exit status.
    static func main(arguments: [String]) -> Int32 {
        guard arguments.count == 5, let commits = Int(arguments[1]) else {
            Console.error("bench: \(subcommand) takes a store path, a commit count, a journal mode, a synchronous level and a log path")
            return 2
        }
        do {
            let settings = StoreSettings(journalMode: arguments[2], synchronous: arguments[3], resultSuffix: "")
            let times = try commit(count: commits, toStoreAt: arguments[0], settings: settings)
            let log = times.map { "\($0.begin) \($0.end)\n" }.joined()
            try log.write(toFile: arguments[4], atomically: true, encoding: .utf8)
            return 0
        } catch {
            Console.error("bench: W11 writer: \(error)")
            return 1
        }
    }

    /// Commits `count` updates, one a transaction, item `i` (`Z_PK = i + 1`) in commit `i`, and
    /// returns their times.
    private static func commit(count: Int, toStoreAt path: String, settings: StoreSettings) throws -> [CommitTimes] {
        let connection = try SQLiteConnection(path: path, settings: settings)
        defer { connection.close() }
        // In rollback-journal mode the reader's look at the data version holds a shared lock for
        // a moment, which a commit must wait for.
        sqlite3_busy_timeout(connection.handle, 5_000)
        let sql = ItemTable.updateAttributeSQL(Workload.w10UpdatedAttribute)
        let statement = try connection.prepare(sql)
        let handle = statement.handle
        var times: [CommitTimes] = []
        for index in 0..<count {
            usleep(UInt32(Workload.w11Pause(beforeCommit: index) * 1e6))
            sqlite3_bind_int64(handle, 1, Workload.w10NewValue(forItem: index))
            sqlite3_bind_int64(handle, 2, Int64(index) + 1)
            sqlite3_bind_int64(handle, 3, ItemTable.fixtureVersion)
            let begin = ProcessProbe.monotonicSeconds()
            let code = sqlite3_step(handle)
            let end = ProcessProbe.monotonicSeconds()
            try connection.check(code, sql: sql)
            guard sqlite3_changes(connection.handle) == 1 else {
                throw BenchmarkError.unexpectedValue(peer: "W11 writer", detail: "the UPDATE of Z_PK \(index + 1) changed no row")
            }
            sqlite3_reset(handle)
            times.append(CommitTimes(begin: begin, end: end))
        }
        return times
    }
}
