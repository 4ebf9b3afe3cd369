#if canImport(CoreData)
import CoreData

extension CoreDataPeers {
    /// W11 ours: a coordinator whose store is added with
    /// `NSPersistentStoreRemoteChangeNotificationPostOptionKey: true`, and an observer of its
    /// `NSPersistentStoreRemoteChange` notifications (`queue: nil`, so it runs on the posting
    /// thread as soon as the notification is posted) recording when each arrives. The writer
    /// process commits to the same file.
    ///
    /// Set-up (not measured): the stack on the fixture copy, the observer, the store left to
    /// settle. Tear-down: the observer removed, the store removed.
    static var notifyRemoteCommits: Peer {
        Peer(name: "ours", family: .ours) { input in
            let exchange = RemoteCommitExchange(input: input)
            let stack = try CoreDataItemStack(
                storeURL: input.storeURL, settings: input.settings,
                options: [NSPersistentStoreRemoteChangeNotificationPostOptionKey: true as NSNumber])
            let arrivals = exchange.arrivals
            let observer = NotificationCenter.default.addObserver(
                forName: .NSPersistentStoreRemoteChange, object: stack.coordinator, queue: nil
            ) { _ in arrivals.record() }
            exchange.settle()
            return PreparedRun(
                body: exchange.run,
                tearDown: {
                    NotificationCenter.default.removeObserver(observer)
                    try stack.close()
                },
                eventLatencies: { exchange.latencies })
        }
    }
}
#endif
