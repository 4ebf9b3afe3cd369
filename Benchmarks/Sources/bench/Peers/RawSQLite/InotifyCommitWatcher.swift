import BenchSQLite
import Foundation
import Synchronization

/// W11's floor: learns of another process's commits the way our observer does, with the kernel
/// doing the waking (inotify on the store's directory) and `PRAGMA data_version` on a connection
/// of its own deciding whether a commit happened, but with nothing in between: a thread of its
/// own blocks in `poll`, and after an event it looks at the data version every 0.1 ms until the
/// version moves or ``recheckWindow`` passes without a new event. A commit's last write to the
/// file comes just before SQLite publishes the commit, so the first look may come too early.
final class InotifyCommitWatcher: Sendable {
    /// How long after the last event the watcher keeps looking, as long as our observer's last
    /// re-check.
    private static let recheckWindow = 0.25
    /// The pause between two looks while a commit is expected, in microseconds.
    private static let recheckInterval: UInt32 = 100
    /// How long `poll` waits before checking whether the watcher was stopped, in milliseconds.
    private static let idleTimeout: Int32 = 20

    private let stopRequested = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts watching the store file at `storeURL`; each commit seen is recorded in `arrivals`.
    init(storeURL: URL, arrivals: ArrivalTimes) throws {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw BenchmarkError.io("inotify_init1 failed (errno \(errno))") }
        let directory = storeURL.deletingLastPathComponent().path
        guard inotify_add_watch(descriptor, directory, UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE)) >= 0 else {
            close(descriptor)
            throw BenchmarkError.io("inotify_add_watch(\(directory)) failed (errno \(errno))")
        }
        let opened = DispatchSemaphore(value: 0)
        let openingError = Mutex<(any Error)?>(nil)
        Thread.detachNewThread { [self] in
            // The connection lives and dies on this thread, closed before `stop()` returns, so
            // that the harness's read of the file afterwards finds no lock.
            do {
                let connection = try SQLiteConnection(path: storeURL.path)
                let statement = try connection.prepare("PRAGMA data_version")
                opened.signal()
                watch(descriptor, version: statement, arrivals: arrivals)
            } catch {
                openingError.withLock { $0 = error }
                opened.signal()
            }
            close(descriptor)
            finished.signal()
        }
        opened.wait()
        if let error = openingError.withLock({ $0 }) {
            finished.wait()
            throw error
        }
    }

    /// Stops the thread and waits for it to close its descriptor and connection.
    func stop() {
        stopRequested.store(true, ordering: .relaxed)
        finished.wait()
    }

    private func watch(_ descriptor: Int32, version statement: SQLiteStatement, arrivals: ArrivalTimes) {
        var version = Self.dataVersion(statement)
        var lastEvent: Double?
        while !stopRequested.load(ordering: .relaxed) {
            if lastEvent == nil, !Self.waitForEvents(descriptor) { continue }
            if Self.drainEvents(descriptor) { lastEvent = ProcessProbe.monotonicSeconds() }
            let current = Self.dataVersion(statement)
            if let current, current != version {
                arrivals.record()
                version = current
                lastEvent = nil
            } else if let since = lastEvent, ProcessProbe.monotonicSeconds() - since > Self.recheckWindow {
                lastEvent = nil
            } else {
                usleep(Self.recheckInterval)
            }
        }
    }

    /// Blocks until the descriptor has events or ``idleTimeout`` passes; returns whether it has.
    private static func waitForEvents(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, idleTimeout) > 0
    }

    /// Reads every pending event; returns whether there was one. Every file of the run's
    /// directory is the store's.
    private static func drainEvents(_ descriptor: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var any = false
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {
            any = true
        }
        return any
    }

    /// The connection's `PRAGMA data_version`, or `nil` when SQLite is busy (a rollback-journal
    /// commit under way).
    private static func dataVersion(_ statement: SQLiteStatement) -> Int64? {
        defer { sqlite3_reset(statement.handle) }
        guard sqlite3_step(statement.handle) == SQLITE_ROW else { return nil }
        return sqlite3_column_int64(statement.handle, 0)
    }
}
