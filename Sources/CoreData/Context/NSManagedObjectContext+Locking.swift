// The context's lock, from the days before queue-based contexts: a recursive lock that code
// sharing a context between threads takes around its use of the context. The context does not
// take it itself; queue-based contexts confine their work with `perform(_:)` instead.
extension NSManagedObjectContext: NSLocking {
    /// Acquires the context's lock, blocking the thread until it is free.
    ///
    /// The lock is recursive: the thread that holds it may lock it again, and must unlock it as
    /// many times. Keep a strong reference to the context until you unlock it.
    @available(*, deprecated, message: "Use a queue style context and -performBlockAndWait: instead")
    public func lock() {
        contextLock.lock()
    }

    /// Relinquishes a lock acquired with `lock()` or `tryLock()`.
    @available(*, deprecated, message: "Use a queue style context and -performBlockAndWait: instead")
    public func unlock() {
        contextLock.unlock()
    }

    /// Acquires the context's lock if it is free, or already held by this thread.
    ///
    /// - Returns: `true` if the lock was acquired, otherwise `false`; it returns at once.
    @available(*, deprecated, message: "Use a queue style context and -performBlock: instead")
    public func tryLock() -> Bool {
        contextLock.try()
    }
}
