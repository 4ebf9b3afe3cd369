/// An actor with a model context of its own, for work off the main actor.
///
/// Declare one with `@ModelActor`; its methods run on the executor of its context, so that
/// they use the context and its models safely.
public protocol ModelActor: Actor {
    /// The container the actor's context works on.
    nonisolated var modelContainer: ModelContainer { get }
    /// The executor that runs the actor's work with its context.
    nonisolated var modelExecutor: any ModelExecutor { get }
}

extension ModelActor {
    /// The actor's executor, which runs on its model context's queue.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        guard let serial = modelExecutor as? any SerialExecutor else {
            preconditionFailure("A model actor's executor must be serial")
        }
        return serial.asUnownedSerialExecutor()
    }

    /// The actor's model context.
    public var modelContext: ModelContext {
        modelExecutor.modelContext
    }

    /// The model with an identifier, in the actor's context, when it exists.
    public subscript<T: PersistentModel>(id: PersistentIdentifier, as type: T.Type) -> T? {
        let model = modelContext.model(for: id)
        guard let typed = model as? T, !typed.isDeleted else { return nil }
        return typed
    }
}
