internal import CoreData

/// A workspace of models: it inserts, changes, deletes and fetches them, and saves the
/// changes to the container's stores.
///
/// A context, and the models it returns, belong to the actor that uses it: the main actor for
/// the container's main context, a model actor for its own context. Pass `persistentModelID`s
/// between them.
public class ModelContext: Equatable, CustomDebugStringConvertible {
    /// The container whose stores the context saves to.
    public let container: ModelContainer

    let managedContext: NSManagedObjectContext
    var observers: [NSObjectProtocol] = []
    var autosaveScheduled = false
    /// Whether the context is used on its own queue: the main context, or a model actor's.
    var runsOnItsQueue: Bool
    /// The lifetime the context's models hold, while any does.
    private var lifetimeReference = ModelReference()

    /// Whether the context saves by itself after its models change: after the change, on the
    /// context's actor. Off by default, on for the container's main context.
    public var autosaveEnabled = false {
        didSet { if autosaveEnabled, hasChanges { scheduleAutosave() } }
    }

    /// Creates a context for a container's stores.
    public convenience init(_ container: ModelContainer) {
        self.init(container, concurrencyType: .privateQueueConcurrencyType)
    }

    init(_ container: ModelContainer, concurrencyType: NSManagedObjectContextConcurrencyType) {
        self.container = container
        runsOnItsQueue = concurrencyType == .mainQueueConcurrencyType
        managedContext = NSManagedObjectContext(concurrencyType: concurrencyType)
        managedContext.persistentStoreCoordinator = container.coordinator
        managedContext.automaticallyMergesChangesFromParent = true
        // A model saved with the unique values of a stored one updates the stored one (an
        // upsert), as SwiftData documents for `@Attribute(.unique)`.
        managedContext.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        managedContext.owner = self
        observeSaves()
    }

    deinit {
        observers.forEach(NotificationCenter.default.removeObserver)
    }

    /// What the context's models hold to keep it alive.
    var lifetime: ModelContextLifetime {
        if let lifetime = lifetimeReference.load() { return unsafeDowncast(lifetime, to: ModelContextLifetime.self) }
        let lifetime = ModelContextLifetime(self)
        lifetimeReference.store(lifetime)
        return lifetime
    }

    /// The model context that works through a Core Data context.
    static func owning(_ context: NSManagedObjectContext) -> ModelContext? {
        context.owner as? ModelContext
    }

    /// The author persistent history records with the context's saves.
    public var author: String? {
        get { managedContext.transactionAuthor }
        set { managedContext.transactionAuthor = newValue }
    }

    /// Whether the context has unsaved changes.
    public var hasChanges: Bool { managedContext.hasChanges }

    /// The models inserted since the last save.
    public var insertedModelsArray: [any PersistentModel] { models(of: managedContext.insertedObjects) }

    /// The models changed since the last save.
    public var changedModelsArray: [any PersistentModel] { models(of: managedContext.updatedObjects) }

    /// The models deleted since the last save.
    public var deletedModelsArray: [any PersistentModel] { models(of: managedContext.deletedObjects) }

    public static func == (lhs: ModelContext, rhs: ModelContext) -> Bool {
        lhs === rhs
    }

    public var debugDescription: String {
        "ModelContext(\(ObjectIdentifier(self)), inserted: \(managedContext.insertedObjects.count), updated: \(managedContext.updatedObjects.count), deleted: \(managedContext.deletedObjects.count))"
    }

    private func models(of objects: Set<NSManagedObject>) -> [any PersistentModel] {
        objects.compactMap { ($0 as? AnyModelObject)?.anyModel }
    }
}
