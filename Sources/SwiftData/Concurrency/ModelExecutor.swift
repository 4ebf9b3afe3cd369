/// An executor that runs work with a model context.
public protocol ModelExecutor: Executor {
    /// The context the executor's work uses.
    var modelContext: ModelContext { get }
}

/// A model executor that runs one job at a time.
public protocol SerialModelExecutor: ModelExecutor, SerialExecutor {}
