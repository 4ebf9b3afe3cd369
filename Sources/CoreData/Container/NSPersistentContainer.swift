/// A container that sets up a Core Data stack: a model, a coordinator, stores and contexts.
///
/// ```swift
/// let container = NSPersistentContainer(name: "Movies", managedObjectModel: model)
/// container.loadPersistentStores { description, error in … }
/// let context = container.viewContext
/// ```
///
/// By default the store is a SQLite file named after the container in `defaultDirectoryURL()`
/// (`$XDG_DATA_HOME`, or `~/.local/share`, on Linux).
///
/// `viewContext` is a main-queue context. A command-line program or a server that never runs the
/// main queue uses it from the main thread through `performAndWait(_:)`, which runs the block
/// at once when called on the main thread; from other threads, use background contexts.
// The container's state is set up once (loadPersistentStores) and then only read; contexts and
// the coordinator synchronize themselves.
open class NSPersistentContainer: NSObject, @unchecked Sendable {
    /// The container's name; the default store file is `<name>.sqlite`.
    public let name: String

    /// The model of the container's stores.
    public let managedObjectModel: NSManagedObjectModel

    /// The coordinator of the container's stores.
    public let persistentStoreCoordinator: NSPersistentStoreCoordinator

    /// The descriptions of the stores `loadPersistentStores` adds.
    open var persistentStoreDescriptions: [NSPersistentStoreDescription]

    private let mainContextLock = NSLock()
    private var mainContext: NSManagedObjectContext?

    /// Creates a container with a name and a model.
    public init(name: String, managedObjectModel model: NSManagedObjectModel) {
        self.name = name
        self.managedObjectModel = model
        self.persistentStoreCoordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        self.persistentStoreDescriptions = [
            NSPersistentStoreDescription(url: Self.defaultDirectoryURL().appendingPathComponent("\(name).sqlite"))
        ]
        super.init()
    }

    /// Creates a container whose model is the one named `name` that the program ships.
    ///
    /// The model is `<name>.xcdatamodeld` (or `<name>.xcdatamodel`) in the main bundle's
    /// resources or in a SwiftPM resource bundle beside the executable, where an Xcode app
    /// would have `<name>.momd`. When there is none, or it cannot be read, the container gets
    /// an empty model and `loadPersistentStores` reports why for each store, never a crash.
    public convenience init(name: String) {
        do {
            let directories = ModelLocator.searchDirectories(for: nil)
            guard let url = ModelLocator.modelURL(named: name, in: directories) else {
                throw CoreDataError.make(NSCoreDataError, "No model named '\(name)' was found: looked for \(name).xcdatamodeld in \(directories.map(\.path).joined(separator: ", ")).")
            }
            self.init(name: name, managedObjectModel: try NSManagedObjectModel(validatingContentsOf: url))
        } catch {
            self.init(name: name, managedObjectModel: NSManagedObjectModel())
            modelError = error
        }
    }

    /// Why the model `init(name:)` looked for could not be loaded.
    private var modelError: Error?

    /// The directory for stores: `$XDG_DATA_HOME`, or `~/.local/share`.
    open class func defaultDirectoryURL() -> URL {
        ApplicationDataDirectory.url
    }

    /// Adds every described store to the coordinator, calling `block` once per store.
    open func loadPersistentStores(completionHandler block: @escaping (NSPersistentStoreDescription, Error?) -> Void) {
        for description in persistentStoreDescriptions {
            if let modelError {
                block(description, modelError)
                continue
            }
            persistentStoreCoordinator.addPersistentStore(with: description, completionHandler: block)
        }
    }

    /// The main-queue context of the container.
    open var viewContext: NSManagedObjectContext {
        mainContextLock.withLock {
            if let mainContext { return mainContext }
            let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
            context.persistentStoreCoordinator = persistentStoreCoordinator
            mainContext = context
            return context
        }
    }

    /// A new private-queue context on the container's coordinator.
    open func newBackgroundContext() -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = persistentStoreCoordinator
        return context
    }

    /// Runs a block on a new private-queue context, asynchronously.
    open func performBackgroundTask(_ block: @escaping @Sendable (NSManagedObjectContext) -> Void) {
        let context = newBackgroundContext()
        context.perform { block(context) }
    }

    /// Runs a block on a new private-queue context and returns its result.
    public func performBackgroundTask<T>(_ block: @escaping @Sendable (NSManagedObjectContext) throws -> T) async rethrows -> T where T: Sendable {
        try await performBackgroundTask(block, rescue: { throw $0 })
    }

    /// Runs `block` on a background context, handing an error it threw to `rescue`, whose only job
    /// is to rethrow it: that keeps the public method `rethrows`.
    private func performBackgroundTask<T: Sendable>(_ block: @escaping @Sendable (NSManagedObjectContext) throws -> T, rescue: (Error) throws -> T) async rethrows -> T {
        let context = newBackgroundContext()
        let outcome: Result<T, Error> = await withCheckedContinuation { continuation in
            context.perform {
                continuation.resume(returning: Result { try block(context) })
            }
        }
        switch outcome {
        case .success(let value): return value
        case .failure(let error): return try rescue(error)
        }
    }
}
