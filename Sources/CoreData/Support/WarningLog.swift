/// The warnings Core Data writes to standard error, each at most once per process, as Apple's
/// Core Data logs a warning about a model once rather than on every use.
///
/// It is `@unchecked Sendable` because every access to `written` holds `lock`.
final class WarningLog: @unchecked Sendable {
    /// The log Core Data writes its warnings to.
    static let shared = WarningLog()

    private let lock = NSLock()
    private var written: Set<String> = []

    /// Writes `CoreData: warning: ` and `message` to standard error, unless the same message was
    /// written before; returns whether it wrote it.
    @discardableResult
    func warnOnce(_ message: String) -> Bool {
        guard lock.withLock({ written.insert(message).inserted }) else { return false }
        DebugSwitch.log("warning: " + message)
        return true
    }
}
