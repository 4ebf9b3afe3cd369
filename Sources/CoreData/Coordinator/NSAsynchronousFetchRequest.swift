/// The completion block of an asynchronous fetch request, for any result type.
public typealias NSPersistentStoreAsynchronousFetchResultCompletionBlock = (NSAsynchronousFetchResult<NSFetchRequestResult>) -> Void

/// A fetch request that runs after `NSManagedObjectContext.execute(_:)` returns, and reports its
/// progress and results through an `NSAsynchronousFetchResult`.
///
/// The fetch runs on the context's queue, as a block given to `perform(_:)`; its completion
/// block runs there too, with the objects registered in the context.
open class NSAsynchronousFetchRequest<ResultType: NSFetchRequestResult>: NSPersistentStoreRequest {
    private let request: NSFetchRequest<ResultType>
    let typedCompletion: ((NSAsynchronousFetchResult<ResultType>) -> Void)?

    /// A scheduling hint: how many results the fetch is expected to have.
    open var estimatedResultCount: Int = 0

    /// Creates an asynchronous request for a fetch request.
    ///
    /// - Parameters:
    ///   - request: The fetch to run.
    ///   - blk: Called on the context's queue when the fetch has run, failed or was cancelled.
    public init(fetchRequest request: NSFetchRequest<ResultType>, completionBlock blk: ((NSAsynchronousFetchResult<ResultType>) -> Void)? = nil) {
        self.request = request
        typedCompletion = blk
        super.init()
    }

    /// The fetch the request runs.
    open var fetchRequest: NSFetchRequest<ResultType> { request }

    /// The block called when the fetch has completed, taking the result of any result type.
    open var completionBlock: NSPersistentStoreAsynchronousFetchResultCompletionBlock? {
        guard let typedCompletion else { return nil }
        return { [request = self] result in
            let typed = NSAsynchronousFetchResult<ResultType>(request: request, context: result.managedObjectContext, progress: result.progress)
            typed.adopt(result)
            typedCompletion(typed)
        }
    }

    open override var requestType: NSPersistentStoreRequestType {
        .fetchRequestType
    }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSAsynchronousFetchRequest(fetchRequest: request, completionBlock: typedCompletion)
        copy.estimatedResultCount = estimatedResultCount
        copy.affectedStores = affectedStores
        return copy
    }
}
