import Dispatch
import Synchronization

/// Tells when a commit to a store file happened, whoever made it: another process, another
/// coordinator of this one, or the store's own connection.
///
/// A `FileChangeWatcher` wakes it when the database or its write-ahead log is written; it then
/// decides with `PRAGMA data_version` on a connection of its own, whose value changes exactly
/// when another connection has committed. File events alone would also report checkpoints and log
/// resets, which change no data. A commit's last write to the log comes just before SQLite
/// publishes it in the shared-memory index, which the kernel does not report, so each wake-up
/// looks again a little later (`settleDelays`): a bounded re-check, not a polling loop. A newer
/// wake-up supersedes the re-checks of older ones, so a burst of writes costs one series.
final class SQLiteCommitObserver: Sendable {
    /// When a wake-up looks again for a commit that was not yet published.
    private static let settleDelays: [DispatchTimeInterval] = [.milliseconds(2), .milliseconds(10), .milliseconds(50), .milliseconds(250)]

    private struct State {
        var connection: SQLiteConnection?
        var dataVersion: Int64?
        /// Counts wake-ups; a re-check runs only while its wake-up is the latest.
        var wakeUps = 0
    }

    private let queue = DispatchQueue(label: "CoreData.SQLiteCommitObserver")
    private let state: Mutex<State>
    private let onCommit: @Sendable () -> Void
    private let watcher = Mutex<FileChangeWatcher?>(nil)

    /// Starts observing the store file at `url`; `onCommit` runs on a private queue, once per
    /// burst of commits.
    init(storeURL url: URL, onCommit: @escaping @Sendable () -> Void) throws {
        let connection = try SQLiteConnection(path: url.path, readOnly: true, create: false)
        let version = try connection.scalar("PRAGMA data_version")
        state = Mutex(State(connection: connection, dataVersion: version))
        self.onCommit = onCommit
        let names: Set<String> = [url.lastPathComponent, url.lastPathComponent + "-wal"]
        let watcher = try FileChangeWatcher(directory: url.deletingLastPathComponent(), fileNames: names, queue: queue) { [weak self] in
            self?.filesDidChange()
        }
        self.watcher.withLock { $0 = watcher }
    }

    deinit {
        stop()
    }

    /// Stops observing and closes the connection: commits after it returns are not reported (a
    /// report already under way may still finish).
    func stop() {
        watcher.withLock { watcher in
            watcher?.stop()
            watcher = nil
        }
        state.withLock { state in
            state.connection?.close()
            state.connection = nil
        }
    }

    private func filesDidChange() {
        let wakeUp = state.withLock { state in
            state.wakeUps += 1
            return state.wakeUps
        }
        reportCommit()
        for delay in Self.settleDelays {
            queue.asyncAfter(deadline: .now() + delay) { [weak self] in self?.reportCommit(ifLatest: wakeUp) }
        }
    }

    /// Calls `onCommit` when the data version moved since the last look (and, for a re-check,
    /// when no wake-up came after the one it belongs to).
    private func reportCommit(ifLatest wakeUp: Int? = nil) {
        let committed = state.withLock { state in
            guard wakeUp == nil || wakeUp == state.wakeUps,
                  let connection = state.connection, let version = try? connection.scalar("PRAGMA data_version") else { return false }
            defer { state.dataVersion = version }
            return version != state.dataVersion
        }
        if committed { onCommit() }
    }
}
