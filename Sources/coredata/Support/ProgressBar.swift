import Foundation

/// Draws a `Progress` as a bar on standard error, redrawn from a background thread until stopped
/// whenever its percentage changes (so that a log of a non-interactive run stays short).
final class ProgressBar: @unchecked Sendable {
    private let progress: Progress
    private let lock = NSLock()
    private var running = false
    private var thread: Thread?
    private var drawnPercent: Int?
    private static let width = 30

    init(_ progress: Progress) {
        self.progress = progress
    }

    func start() {
        lock.withLock { running = true }
        let thread = Thread { [self] in
            while lock.withLock({ running }) {
                draw()
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        self.thread = thread
        thread.start()
    }

    /// Stops redrawing and draws the final state on its own line.
    func stop() {
        lock.withLock { running = false }
        while thread?.isFinished == false { Thread.sleep(forTimeInterval: 0.01) }
        draw()
        FileHandle.standardError.write(Data("\n".utf8))
    }

    private func draw() {
        let fraction = min(max(progress.fractionCompleted, 0), 1)
        let percent = Int(fraction * 100)
        let changed = lock.withLock {
            defer { drawnPercent = percent }
            return drawnPercent != percent
        }
        guard changed else { return }
        let filled = Int((fraction * Double(Self.width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: Self.width - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(percent)%".utf8))
    }
}
