internal import CoreData

/// The executor of a model actor: it runs the actor's jobs one at a time on the queue of the
/// actor's model context, where the context and its models belong.
public final class DefaultSerialModelExecutor: SerialModelExecutor, @unchecked Sendable {
    // The context is only used by jobs this executor runs, one at a time, on its queue.
    public final let modelContext: ModelContext

    /// Creates the executor of a model context.
    public init(modelContext: ModelContext) {
        self.modelContext = modelContext
        modelContext.runsOnItsQueue = true
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        modelContext.managedContext.perform {
            job.runSynchronously(on: executor)
        }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
