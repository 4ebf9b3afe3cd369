/// A request that layers above the coordinator define and that runs itself when a context's
/// `execute(_:)` or a coordinator's `execute(_:with:)` is given it (persistent history requests).
protocol CoordinatorExecutedRequest: NSPersistentStoreRequest {
    /// Runs the request in the coordinator's stores on behalf of a context.
    func execute(in coordinator: NSPersistentStoreCoordinator, for context: NSManagedObjectContext) throws -> NSPersistentStoreResult
}
