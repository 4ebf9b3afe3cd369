/// The store errors met where Apple's Core Data raises an exception from an API that cannot
/// throw: firing a fault, loading a to-many relationship, evaluating a fetched property.
///
/// Each error is logged (`CoreData.Context`, at `error`), so that a store error never
/// reads as "no data" silently, and the object or relationship reads as empty. With
/// `COREDATA_TRAP_ON_READ_ERRORS=1` in the environment (or the launch argument
/// `-CoreDataTrapOnReadErrors 1`), the program stops there instead, as Apple's would.
///
/// It is `@unchecked Sendable` because every access to `recent` holds `lock`.
final class ReadErrorLog: @unchecked Sendable {
    /// The log of every context.
    static let shared = ReadErrorLog()

    /// Whether a read error stops the program.
    static let traps = DebugSwitch.level(launchArgument: "-CoreDataTrapOnReadErrors", environment: "COREDATA_TRAP_ON_READ_ERRORS") > 0

    /// How many messages `recentMessages` keeps.
    private static let capacity = 64

    private let lock = NSLock()
    private var recent: [String] = []

    /// The last messages written, oldest first.
    var recentMessages: [String] {
        lock.withLock { recent }
    }

    /// Reports that reading `subject` failed with `error`.
    func report(_ error: Error, reading subject: String) {
        let message = "could not read \(subject): \(CoreDataError.reason(of: error))"
        if Self.traps {
            fatalError("CoreData: " + message)
        }
        lock.withLock {
            recent.append(message)
            if recent.count > Self.capacity { recent.removeFirst(recent.count - Self.capacity) }
        }
        CoreDataLog.context.error("\(message)")
    }
}
