extension SQLiteStore {
    /// Observes the store file with a `SQLiteCommitObserver`. When the file cannot be observed
    /// (inotify's per-user limit of watches reached), the store works on without notifications
    /// and says so once on standard error.
    func observeCommits(_ onCommit: @escaping @Sendable () -> Void) {
        guard let url else { return }
        commitObserver?.stop()
        do {
            commitObserver = try SQLiteCommitObserver(storeURL: url, onCommit: onCommit)
        } catch {
            WarningLog.shared.warnOnce("remote change notifications are off for \(url.path): \(error)")
        }
    }
}
