extension Notification.Name {
    /// Posted by a coordinator after a commit to one of its stores whose options set
    /// `NSPersistentStoreRemoteChangeNotificationPostOptionKey` to true, whoever made it: another
    /// process, another coordinator, or this one.
    ///
    /// The notification's `object` is the coordinator; it is posted on a private thread. Its
    /// `userInfo` holds the store's URL under `NSPersistentStoreURLKey` and its UUID under
    /// `NSStoreUUIDKey`. Commits close together may be reported by one notification.
    public static let NSPersistentStoreRemoteChange = Notification.Name("NSPersistentStoreRemoteChangeNotification")
}

/// Key of the `NSPersistentStoreRemoteChange` user info: the URL of the store that changed.
public let NSPersistentStoreURLKey: String = "storeURL"

extension NSPersistentStoreCoordinator {
    /// Starts posting `NSPersistentStoreRemoteChange` for a store just loaded, when its options
    /// ask for it; the store stops observing its file when it is unloaded (removed, or its
    /// coordinator gone).
    func postRemoteChangesIfRequested(for store: NSPersistentStore) throws {
        guard store.isOptionSet(NSPersistentStoreRemoteChangeNotificationPostOptionKey), let url = store.url else { return }
        let identifier = store.identifier ?? ""
        try store.engine().observeCommits { [weak self] in
            guard let self else { return }
            NotificationCenter.default.post(name: .NSPersistentStoreRemoteChange, object: self, userInfo: [
                NSPersistentStoreURLKey: url,
                NSStoreUUIDKey: identifier,
            ])
        }
    }
}
