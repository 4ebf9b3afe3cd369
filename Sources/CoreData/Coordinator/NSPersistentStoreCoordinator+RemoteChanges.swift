extension Notification.Name {
    /// Posted by a coordinator after a commit to one of its stores whose options set
    /// `NSPersistentStoreRemoteChangeNotificationPostOptionKey` to true, whoever made it: another
    /// process, another coordinator, or this one.
    ///
    /// The notification's `object` is the coordinator; it is posted on a private thread. Its
    /// `userInfo` holds the store's URL under `NSPersistentStoreURLKey` and its UUID under
    /// `NSStoreUUIDKey`, and, when the store records persistent history, the token of its latest
    /// transaction under `NSPersistentHistoryTokenKey`. Commits close together may be reported by
    /// one notification.
    public static let NSPersistentStoreRemoteChange = Notification.Name("NSPersistentStoreRemoteChangeNotification")
}

/// Key of the `NSPersistentStoreRemoteChange` user info: the URL of the store that changed.
public let NSPersistentStoreURLKey: String = "storeURL"

/// Key of the `NSPersistentStoreRemoteChange` user info: the store's current
/// `NSPersistentHistoryToken`, when the store records persistent history.
public let NSPersistentHistoryTokenKey: String = "historyToken"

extension NSPersistentStoreCoordinator {
    /// Starts posting `NSPersistentStoreRemoteChange` for a store just loaded, when its options
    /// ask for it; the store stops observing its file when it is unloaded (removed, or its
    /// coordinator gone).
    func postRemoteChangesIfRequested(for store: NSPersistentStore) throws {
        guard store.isOptionSet(NSPersistentStoreRemoteChangeNotificationPostOptionKey), let url = store.url else { return }
        let identifier = store.identifier ?? ""
        try store.engine().observeCommits { [weak self, weak store] in
            guard let self, let store else { return }
            var userInfo: [AnyHashable: Any] = [NSPersistentStoreURLKey: url, NSStoreUUIDKey: identifier]
            if let token = currentPersistentHistoryToken(fromStores: [store]) {
                userInfo[NSPersistentHistoryTokenKey] = token
            }
            NotificationCenter.default.post(name: .NSPersistentStoreRemoteChange, object: self, userInfo: userInfo)
        }
    }
}
