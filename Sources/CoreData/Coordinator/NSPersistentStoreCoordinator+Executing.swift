extension NSPersistentStoreCoordinator {
    /// Runs a request in the coordinator's stores on behalf of a context and returns its result.
    ///
    /// A fetch request returns the array its context's `fetch(_:)` returns. Batch insert, update
    /// and delete requests return an `NSBatchInsertResult`, `NSBatchUpdateResult` or
    /// `NSBatchDeleteResult`; they run only in SQLite stores. An `NSPersistentHistoryChangeRequest`
    /// returns an `NSPersistentHistoryResult`.
    ///
    /// - Throws: `NSPersistentStoreUnsupportedRequestTypeError` (134091) for a request of another
    ///   kind or a store that cannot run it; an error for an unknown entity or key, or a value of
    ///   the wrong type, in which case nothing is written.
    public func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext) throws -> Any {
        if let fetch = request as? AnyResultFetchRequest {
            return try fetch.results(in: context)
        }
        if let executed = request as? CoordinatorExecutedRequest {
            return try executed.execute(in: self, for: context)
        }
        guard let result = try executeBatchRequest(request, with: context) else {
            throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "The coordinator cannot execute a request of type \(type(of: request)).")
        }
        return result
    }
}
