import Synchronization

/// Core Data's concurrency debugging: with `-com.apple.CoreData.ConcurrencyDebug 1` as a launch
/// argument, or `COREDATA_CONCURRENCY_DEBUG=1` in the environment, every use of a context or of
/// its objects from outside the context's queue stops the program with a message that names the
/// context and the thread, as on Apple platforms.
///
/// "The context's queue" is the private queue of a private-queue context (inside `perform` or
/// `performAndWait`), and the main thread for a main-queue context. The check itself is the
/// context's (`NSManagedObjectContext.checkConcurrency(of:)`); this is the switch.
enum ConcurrencyDebug {
    /// Whether the switch is on for this process; contexts copy it when they are made.
    static let isEnabled = DebugSwitch.level(launchArgument: "-com.apple.CoreData.ConcurrencyDebug", environment: "COREDATA_CONCURRENCY_DEBUG") > 0

    /// Whether any context checks its uses: the switch, or a context that turned its checks on.
    /// Every property access of every managed object asks, so it is one atomic flag, not a
    /// lookup of the object's context.
    static var isActive: Bool {
        active.load(ordering: .relaxed)
    }

    private static let active = Atomic<Bool>(isEnabled)

    /// Records that a context turned its checks on.
    static func activate() {
        active.store(true, ordering: .relaxed)
    }

    /// The calling thread's name (Foundation's, or the system's), or its identifier.
    static var currentThreadName: String {
        if let name = Thread.current.name, !name.isEmpty { return name }
        // Linux keeps the system's name of each thread in /proc.
        if let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty {
            return name
        }
        return "\(pthread_self())"
    }
}
