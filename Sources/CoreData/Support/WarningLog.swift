import Logging

/// The warnings Core Data logs, each at most once per process, as Apple's Core Data logs a
/// warning about a model once rather than on every use.
///
/// It is `@unchecked Sendable` because every access to `written` holds `lock`.
final class WarningLog: @unchecked Sendable {
    /// The log Core Data writes its warnings to.
    static let shared = WarningLog()

    private let lock = NSLock()
    private var written: Set<String> = []

    /// Logs `message` as a warning to `logger`, unless the same message was logged before;
    /// returns whether it logged it.
    @discardableResult
    func warnOnce(_ message: String, to logger: Logger = CoreDataLog.store) -> Bool {
        guard lock.withLock({ written.insert(message).inserted }) else { return false }
        logger.warning("\(message)")
        return true
    }
}
