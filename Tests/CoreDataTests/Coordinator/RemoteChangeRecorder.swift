@testable import CoreData
import Synchronization

/// Records the `NSPersistentStoreRemoteChange` notifications one coordinator posts, and waits for
/// them with a generous timeout.
final class RemoteChangeRecorder: Sendable {
    /// What one notification said.
    struct Posted: Sendable, Equatable {
        let storeURL: URL?
        let storeUUID: String?
        /// The history token, for a store that records persistent history.
        var historyToken: NSPersistentHistoryToken? = nil
    }

    /// How long a wait for a notification lasts before it gives up.
    static let patience: TimeInterval = 5

    /// What the observer block and the waits share.
    private final class Log: Sendable {
        let posted = Mutex<[Posted]>([])
        let arrivals = DispatchSemaphore(value: 0)
    }

    private let log = Log()
    // The observer token is only handed back to NotificationCenter, which is thread-safe.
    private let observer: UncheckedSendable<NSObjectProtocol>

    init(_ coordinator: NSPersistentStoreCoordinator) {
        observer = UncheckedSendable(NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: coordinator, queue: nil) { [log] notification in
            let info = notification.userInfo ?? [:]
            log.posted.withLock { $0.append(Posted(
                storeURL: info[NSPersistentStoreURLKey] as? URL, storeUUID: info[NSStoreUUIDKey] as? String,
                historyToken: info[NSPersistentHistoryTokenKey] as? NSPersistentHistoryToken
            )) }
            log.arrivals.signal()
        })
    }

    deinit {
        NotificationCenter.default.removeObserver(observer.value)
    }

    /// The notifications so far.
    var notifications: [Posted] {
        log.posted.withLock { $0 }
    }

    /// Waits until more than `count` notifications have come, up to `patience`; returns whether
    /// they did.
    func waitForNotification(beyond count: Int) -> Bool {
        let deadline = DispatchTime.now() + Self.patience
        while notifications.count <= count {
            guard log.arrivals.wait(timeout: deadline) == .success else { return notifications.count > count }
        }
        return true
    }
}
