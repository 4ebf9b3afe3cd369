// The coordinator's lock, from the days before `perform(_:)`: the lock that serializes every
// access to the coordinator's stores, taken by a thread that wants exclusive use of them.
extension NSPersistentStoreCoordinator: NSLocking {
    /// Acquires the coordinator's lock, blocking the thread until it is free.
    ///
    /// While a thread holds it, the coordinator's stores serve no other thread: other threads'
    /// fetches, faults and saves wait. The lock is recursive: the thread that holds it may use the
    /// coordinator, and lock it again, and must unlock it as many times.
    @available(*, deprecated, message: "Use -performBlockAndWait: instead")
    public func lock() {
        storeLock.lock()
    }

    /// Relinquishes a lock acquired with `lock()` or `tryLock()`.
    @available(*, deprecated, message: "Use -performBlockAndWait: instead")
    public func unlock() {
        storeLock.unlock()
    }

    /// Acquires the coordinator's lock if it is free, or already held by this thread.
    ///
    /// - Returns: `true` if the lock was acquired, otherwise `false`; it returns at once,
    ///   where `lock()` blocks.
    @available(*, deprecated, message: "Use -performBlock: instead")
    public func tryLock() -> Bool {
        storeLock.try()
    }
}
