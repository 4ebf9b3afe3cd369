import Synchronization

/// The result of a request that runs after `NSManagedObjectContext.execute(_:)` has returned: it
/// reports the request's progress, can cancel it, and holds its error.
// Its state is written once, on the context's queue, when the request finishes or is cancelled,
// and guarded by a lock; it is read from any thread.
open class NSPersistentStoreAsynchronousResult: NSPersistentStoreResult, @unchecked Sendable {
    private let context: NSManagedObjectContext
    private let reporter: Progress?
    private let state = Mutex<(error: NSError?, isCancelled: Bool)>((nil, false))

    init(context: NSManagedObjectContext, progress: Progress?) {
        self.context = context
        reporter = progress
        super.init()
    }

    /// The context the request runs in.
    open var managedObjectContext: NSManagedObjectContext { context }

    /// Why the request failed or stopped; nil while it runs and when it succeeded.
    open var operationError: (any Error)? { state.withLock { $0.error } }

    /// The request's progress: one unit, completed when the request finishes. It is a child of
    /// the progress that was current when the request was executed, and cancelling either
    /// cancels the request.
    open var progress: Progress? { reporter }

    /// Cancels the request if it has not run yet; its completion then reports
    /// `NSUserCancelledError`.
    open func cancel() {
        state.withLock { $0.isCancelled = true }
        reporter?.cancel()
    }

    /// Whether the request was cancelled, through ``cancel()`` or its progress.
    var isCancelled: Bool {
        state.withLock { $0.isCancelled } || reporter?.isCancelled == true
    }

    func finish(with error: NSError?) {
        state.withLock { $0.error = error }
        reporter?.completedUnitCount = 1
    }
}
