/// The result of an asynchronous fetch: the fetched objects once the fetch has run.
// The results are written once, on the context's queue, under a lock, and read from any thread.
open class NSAsynchronousFetchResult<ResultType: NSFetchRequestResult>: NSPersistentStoreAsynchronousResult, @unchecked Sendable {
    private let request: NSAsynchronousFetchRequest<ResultType>
    private let lock = NSLock()
    private var results: [ResultType]?

    init(request: NSAsynchronousFetchRequest<ResultType>, context: NSManagedObjectContext, progress: Progress?) {
        self.request = request
        super.init(context: context, progress: progress)
    }

    /// The request that was executed.
    open var fetchRequest: NSAsynchronousFetchRequest<ResultType> { request }

    /// The fetched objects, registered in the context; nil until the fetch has run, and when it
    /// failed or was cancelled.
    open var finalResult: [ResultType]? { lock.withLock { results } }

    /// Takes the outcome of the same fetch seen through another result type.
    func adopt(_ other: NSAsynchronousFetchResult<NSFetchRequestResult>) {
        let adopted = other.finalResult?.compactMap { $0 as? ResultType }
        lock.withLock { results = adopted }
        finish(with: other.operationError.map { $0 as NSError })
    }

    /// Runs the fetch on the context's queue and calls the request's completion block there.
    func run() {
        defer { request.typedCompletion?(self) }
        guard !isCancelled else {
            return finish(with: CoreDataError.make(NSUserCancelledError, "The asynchronous fetch was cancelled."))
        }
        do {
            let fetched = try managedObjectContext.fetch(request.fetchRequest)
            lock.withLock { results = fetched }
            finish(with: nil)
        } catch {
            finish(with: error as NSError)
        }
    }
}

/// An asynchronous request whatever its result type, as `NSManagedObjectContext.execute(_:)` starts it.
protocol AsynchronousFetchStarting {
    /// Schedules the fetch on the context's queue and returns its result at once.
    func start(in context: NSManagedObjectContext) -> NSPersistentStoreAsynchronousResult
}

extension NSAsynchronousFetchRequest: AsynchronousFetchStarting {
    func start(in context: NSManagedObjectContext) -> NSPersistentStoreAsynchronousResult {
        // Made here so that it becomes a child of the progress current on the caller's thread.
        let result = NSAsynchronousFetchResult(request: self, context: context, progress: Progress(totalUnitCount: 1))
        context.perform { result.run() }
        return result
    }
}
