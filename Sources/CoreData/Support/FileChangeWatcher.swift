import Dispatch
import Glibc

/// Watches some files of one directory with Linux inotify and calls a handler on a queue after
/// each batch of writes to them, creations of them or renames onto them.
///
/// The kernel wakes the queue when something happens; nothing polls. The directory is watched
/// rather than the files, so that a file created later (SQLite's `-wal`) or replaced is seen too.
final class FileChangeWatcher: Sendable {
    // A dispatch source is safe to cancel from any thread; only `cancel()` is used outside its queue.
    private let source: UncheckedSendable<DispatchSourceRead>

    /// Starts watching; `onChange` runs on `queue` once per batch of events about `fileNames`.
    ///
    /// - Throws: `POSIXError` when inotify cannot be set up (the per-user limit of watches reached,
    ///   a directory that does not exist).
    init(directory: URL, fileNames: Set<String>, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void) throws {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw Self.lastError() }
        let events = UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE)
        guard inotify_add_watch(descriptor, directory.path, events) >= 0 else {
            let error = Self.lastError()
            close(descriptor)
            throw error
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler {
            if Self.drainEvents(descriptor, mentioning: fileNames) { onChange() }
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
        self.source = UncheckedSendable(source)
    }

    deinit {
        stop()
    }

    /// Stops watching and closes the inotify descriptor (once the queue is done with it).
    func stop() {
        source.value.cancel()
    }

    /// Reads every pending event; returns whether one was about a watched file, or the kernel's
    /// queue overflowed (events lost, so any file may have changed).
    private static func drainEvents(_ descriptor: Int32, mentioning fileNames: Set<String>) -> Bool {
        var mentioned = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return mentioned }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    let nameBytes = bytes[nameStart..<min(nameStart + Int(event.len), count)].prefix { $0 != 0 }
                    if event.mask & UInt32(IN_Q_OVERFLOW) != 0 || fileNames.contains(String(decoding: nameBytes, as: UTF8.self)) {
                        mentioned = true
                    }
                    offset = nameStart + Int(event.len)
                }
            }
        }
    }

    private static func lastError() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
