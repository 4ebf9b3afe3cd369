/// The cleanup one migration postpones, collected while it is planned and run: the table and
/// column drops when it is planned, the missing indexes when its index step runs; its metadata
/// step records them in the store. Empty for a migration that does not defer its cleanup.
final class DeferredCleanup {
    var tasks: [DeferredCleanupTask]

    init(_ tasks: [DeferredCleanupTask]) {
        self.tasks = tasks
    }
}
