import Synchronization

/// A scratch pad of managed objects: it registers the objects fetched from its stores (one object
/// per record), tracks their changes, and saves them in one transaction per store.
///
/// A context belongs to a queue: `.privateQueueConcurrencyType` contexts own a serial queue and are
/// used through `perform(_:)` and `performAndWait(_:)`; `.mainQueueConcurrencyType` contexts use the
/// main queue. Managed objects are confined to their context's queue; object IDs are not.
// A context and its objects are only touched on the context's queue (Apple's confinement rule);
// the context is Sendable so it can be handed to that queue, as Apple's is.
open class NSManagedObjectContext: NSObject, @unchecked Sendable {
    /// How the context confines its work.
    public let concurrencyType: NSManagedObjectContextConcurrencyType

    /// The coordinator the context reads from and saves to; for a child context, its parent's.
    open var persistentStoreCoordinator: NSPersistentStoreCoordinator? {
        get { parent?.persistentStoreCoordinator ?? ownCoordinator }
        set { ownCoordinator = newValue }
    }

    /// The context this one reads from and saves to instead of a coordinator, or nil.
    ///
    /// A child context's fetches and faults see the parent's unsaved state; its `save()` pushes
    /// its inserts, updates and deletes into the parent, which becomes dirty, and writes nothing
    /// to the store. The child uses the parent through the parent's `performAndWait(_:)`, so a
    /// child of the main-queue context needs the main queue serviced (see the README).
    open var parent: NSManagedObjectContext? {
        didSet {
            ContextLinks.changed()
            if automaticallyMergesChangesFromParent { observeParentSaves(true) }
        }
    }

    /// A name for debugging.
    open var name: String?

    /// The author recorded with the context's saves in persistent history.
    open var transactionAuthor: String?

    /// The object of a layer above Core Data that works through this context (SwiftData's
    /// model context), which the context's objects lead back to.
    package weak var owner: AnyObject?

    /// Seconds within which cached row data may fulfil a fault; negative means no limit (the default).
    open var stalenessInterval: TimeInterval = -1

    /// Whether the context merges, on its own queue, the changes saved to its parent: its parent
    /// context's saves, or for a context without a parent, the saves other contexts of its
    /// coordinator make to the stores. The default is false.
    open var automaticallyMergesChangesFromParent: Bool = false {
        didSet { if automaticallyMergesChangesFromParent != oldValue { observeParentSaves(automaticallyMergesChangesFromParent) } }
    }

    /// Merges the changes of another context's save, from its did-save notification (with
    /// objects or object IDs): objects it updated are refreshed, keeping this context's unsaved
    /// changes (a to-many relationship keeps this context's additions and removals on top of the
    /// saved destinations); objects it inserted are registered with their values; objects it
    /// deleted that this context holds stay registered, `isDeleted` and among `deletedObjects`,
    /// with their last values, until this context saves (writing nothing for them), while fetches
    /// no longer return them. `NSManagedObjectContextObjectsDidChange` then lists the inserted,
    /// refreshed (`NSRefreshedObjectsKey`) and deleted objects. Call it on this context's queue.
    open func mergeChanges(fromContextDidSave notification: Notification) {
        checkConcurrency(of: "mergeChanges(fromContextDidSave:)")
        mergeChangesImplementation(fromContextDidSave: notification)
    }

    /// Merges changes saved elsewhere (by another coordinator or process) into contexts, each on
    /// its own queue.
    ///
    /// - Parameters:
    ///   - changeNotificationData: Arrays of `NSManagedObjectID`s or their URIs under
    ///     `NSInsertedObjectsKey`, `NSUpdatedObjectsKey` and `NSDeletedObjectsKey`.
    ///   - contexts: The contexts to merge into.
    open class func mergeChanges(fromRemoteContextSave changeNotificationData: [AnyHashable: Any], into contexts: [NSManagedObjectContext]) {
        mergeRemoteChanges(changeNotificationData, into: contexts)
    }

    /// How a save resolves conflicts with changes saved elsewhere since this context read the
    /// objects: an `NSMergePolicy`, or one of the constants such as `NSMergeByPropertyObjectTrumpMergePolicy`.
    /// The default, `NSErrorMergePolicy`, makes such a save fail with `NSManagedObjectMergeError`.
    open var mergePolicy: Any = NSErrorMergePolicy

    /// Whether deletes propagate through relationships at the end of each event (the default), or only at save.
    open var propagatesDeletesAtEndOfEvent: Bool = true

    /// Whether the context keeps strong references to all its registered objects (default false).
    open var retainsRegisteredObjects: Bool = false {
        didSet { retainRegisteredObjectsIfNeeded() }
    }

    /// Whether a fault whose row is gone becomes a deleted object with nil values (the default),
    /// rather than an error.
    open var shouldDeleteInaccessibleFaults: Bool = true

    /// Decides whether the context handles a fault whose row is gone, by making it a deleted
    /// object with nil values; the default returns `shouldDeleteInaccessibleFaults`, and logs the
    /// fault when debug output is on (`-com.apple.CoreData.SQLDebug 1`).
    ///
    /// The context asks when it fulfills a fault of an object whose row no longer exists,
    /// never for methods that report errors instead (`existingObject(with:)`) nor for objects
    /// without a context. Where Apple's context raises for a fault it does not handle, this one
    /// gives the object nil values and leaves it registered, not deleted.
    ///
    /// - Parameters:
    ///   - fault: The object whose row is gone.
    ///   - oid: The object's ID.
    ///   - property: The property whose access fired the fault, or nil when it is not known or
    ///     when every property is involved.
    /// - Returns: Whether the context deletes the object.
    open func shouldHandleInaccessibleFault(_ fault: NSManagedObject, for oid: NSManagedObjectID, triggeredByProperty property: NSPropertyDescription?) -> Bool {
        CoreDataLog.context.debug("the row of \(oid) is gone; the fault\(property.map { " fired by '\($0.name)'" } ?? "") cannot be fulfilled.")
        return shouldDeleteInaccessibleFaults
    }

    /// A dictionary for the program's own information about the context; the context does not
    /// read it.
    public let userInfo = NSMutableDictionary()

    /// The undo manager that records the context's changes, or nil (the default).
    ///
    /// With an undo manager, the context records the changes made through its objects' setters
    /// (including `willChangeValue(forKey:)` before a primitive setter), `insert(_:)` and
    /// `delete(_:)`, and registers the changes of each event as one undo action when it
    /// processes pending changes, after delete propagation, so that undoing a delete also brings
    /// back what the delete cascaded to and nullified. The context processes its pending changes
    /// at each of the undo manager's checkpoints too, so that opening or closing an undo group
    /// registers the changes made before it.
    ///
    /// `rollback()` and `reset()` remove all of the undo manager's actions; a save keeps them,
    /// and undoing a saved change makes a change to save again.
    ///
    /// Linux programs rarely run a run loop, so the undo group of an event opens at its first
    /// registration and closes when the context processes pending changes: at the end of each
    /// `perform(_:)` block, in `save()`, or when you call `processPendingChanges()`.
    ///
    /// The undo manager belongs to the context's queue, like the context's objects: use it, and
    /// the context's `undo()` and `redo()`, from blocks you give to `perform(_:)` or
    /// `performAndWait(_:)`. Setting it to nil while importing many objects skips the recording.
    open var undoManager: UndoManager? {
        didSet { undoManagerDidChange() }
    }

    /// One object per record: the registered objects by ID, held weakly (objects unregister when
    /// they are deallocated; objects with changes are held strongly by `changedObjects`).
    let registry = ObjectRegistry()
    /// What the context's objects hold of it (see `ObjectContextLink`).
    let objectLink: ObjectContextLink
    /// Strong references to every object with pending changes, in the order they changed.
    var changedObjects = TrackedObjects(marker: .trackedAsChanged)
    /// Objects changed since the last `processPendingChanges()`, for ObjectsDidChange.
    var eventObjects = TrackedObjects(marker: .trackedForEvent)
    /// Deleted objects whose delete rules have not run yet.
    var awaitingPropagation: [NSManagedObject] = []
    /// Objects inserted in an earlier event, deleted since and forgotten: the next
    /// ObjectsDidChange reports them deleted, as observers were told of their insert.
    var forgottenInserts: [NSManagedObject] = []
    /// The changes of the current event, while the context has an undo manager.
    var undoRecord: UndoRecord?
    /// The observer of the undo manager's checkpoints while the context has an undo manager.
    var undoCheckpointObserver: (any NSObjectProtocol)?
    /// Strong references to all registered objects when `retainsRegisteredObjects` is set.
    var retainedObjects: [NSManagedObject] = []
    /// Whether uses of the context and its objects are checked against its queue (the
    /// concurrency debug switch, copied when the context is made).
    var checksConcurrency = ConcurrencyDebug.isEnabled {
        didSet { if checksConcurrency { ConcurrencyDebug.activate() } }
    }
    /// Called instead of stopping the program when a check fails; for tests.
    var concurrencyViolationHandler: ((String) -> Void)?
    /// The class of each entity's objects, resolved once.
    var classesByEntity: [ObjectIdentifier: NSManagedObject.Type] = [:]
    /// The observer of the parent's saves while `automaticallyMergesChangesFromParent` is set.
    var parentSaveObserver: (any NSObjectProtocol)?
    /// The coordinator set on this context, used when it has no parent.
    private(set) var ownCoordinator: NSPersistentStoreCoordinator? {
        didSet { ContextLinks.changed() }
    }
    /// `entitiesByName` as last read; locked because entity descriptions are looked up by name
    /// from any thread.
    let entityNames = Mutex<EntityNames?>(nil)
    /// What fetches prefetched, until it is used.
    var prefetched = PrefetchCache()
    /// Objects marked with `detectConflicts(for:)` since the last save.
    var objectsCheckedForConflicts: [NSManagedObject] = []
    /// Which generation of the stores' data the context reads.
    var queryGeneration = QueryGenerationState.unpinned
    /// How many fetch request expressions are running their fetches in this context, one inside
    /// another's predicate: a request that names itself would otherwise recurse without end.
    var nestedFetchDepth = 0
    /// The lock of `lock()`, `tryLock()` and `unlock()`.
    let contextLock = NSRecursiveLock()
    /// The stores `assign(_:to:)` chose for inserted objects.
    var storeAssignments = StoreAssignments()

    let queue: DispatchQueue?
    let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    /// Creates a context with a concurrency type.
    public init(concurrencyType ct: NSManagedObjectContextConcurrencyType) {
        concurrencyType = ct
        switch ct {
        case .privateQueueConcurrencyType:
            queue = DispatchQueue(label: "NSManagedObjectContext")
        case .mainQueueConcurrencyType, .confinementConcurrencyType:
            queue = nil
        }
        objectLink = ObjectContextLink(registry: registry)
        super.init()
        objectLink.context = self
        queue?.setSpecific(key: queueKey, value: ObjectIdentifier(self))
    }

    /// Creates a context confined to the current thread (deprecated by Apple; prefer a queue type).
    public convenience override init() {
        self.init(concurrencyType: .confinementConcurrencyType)
    }

    deinit {
        objectLink.context = nil
        if let parentSaveObserver {
            NotificationCenter.default.removeObserver(parentSaveObserver)
        }
        if let undoCheckpointObserver {
            NotificationCenter.default.removeObserver(undoCheckpointObserver)
        }
        for object in registry.removeAll() {
            object.managedObjectContext = nil
        }
        reportRegistrations()
    }

    /// The model of the context's coordinator.
    open var managedObjectModel: NSManagedObjectModel? {
        persistentStoreCoordinator?.managedObjectModel
    }

    // MARK: Queue

    /// Runs a block asynchronously on the context's queue, then processes pending changes.
    open func perform(_ block: @escaping @Sendable () -> Void) {
        performImplementation(block)
    }

    /// Runs a block synchronously on the context's queue. Re-entrant: a nested call runs inline.
    open func performAndWait(_ block: () -> Void) {
        performAndWaitImplementation(block)
    }

    /// Runs a block synchronously on the context's queue and returns its result or rethrows its error.
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        try performAndWait(block, rescue: { throw $0 })
    }

    /// Runs `block` through `performAndWait(_:)`, handing an error it threw to `rescue`, whose
    /// only job is to rethrow it: that keeps the public method `rethrows`.
    private func performAndWait<T>(_ block: () throws -> T, rescue: (Error) throws -> T) rethrows -> T {
        var outcome: Result<T, Error>?
        withoutActuallyEscaping(block) { work in
            performAndWaitImplementation { outcome = Result { try work() } }
        }
        switch outcome {
        case .success(let value)?: return value
        case .failure(let error)?: return try rescue(error)
        case nil: preconditionFailure("performAndWait did not run its block.")
        }
    }

    // MARK: Registering objects

    /// Registers a new object; it is inserted into the store at the next save.
    open func insert(_ object: NSManagedObject) {
        checkConcurrency(of: "insert(_:)")
        insertImplementation(object)
    }

    /// Marks an object for deletion at the next save. An object that was never saved is simply removed.
    open func delete(_ object: NSManagedObject) {
        checkConcurrency(of: "delete(_:)")
        deleteImplementation(object)
    }

    /// The object for an ID: the registered one, or a new fault. Never does I/O; a fault for a
    /// record that does not exist fails when its values are accessed.
    open func object(with objectID: NSManagedObjectID) -> NSManagedObject {
        checkConcurrency(of: "object(with:)")
        return objectImplementation(with: objectID)
    }

    /// The object for an ID, loaded from the store if needed; throws when it does not exist.
    open func existingObject(with objectID: NSManagedObjectID) throws -> NSManagedObject {
        checkConcurrency(of: "existingObject(with:)")
        return try existingObjectImplementation(with: objectID)
    }

    /// The registered object for an ID, or nil.
    open func registeredObject(for objectID: NSManagedObjectID) -> NSManagedObject? {
        checkConcurrency(of: "registeredObject(for:)")
        return registry.object(for: objectID.identity)
    }

    /// Gives the objects permanent IDs now, before they are saved.
    open func obtainPermanentIDs(for objects: [NSManagedObject]) throws {
        checkConcurrency(of: "obtainPermanentIDs(for:)")
        try obtainPermanentIDsImplementation(for: objects)
    }

    // MARK: Fetching

    /// Passes a request to the context's stores without changing the context, and returns the
    /// request's result.
    ///
    /// An `NSAsynchronousFetchRequest` returns its `NSAsynchronousFetchResult` at once; the fetch
    /// then runs on the context's queue. Batch insert, update and delete requests run in the
    /// SQLite stores at once and leave the context's objects as they are (see
    /// `mergeChanges(fromRemoteContextSave:into:)`). An `NSPersistentHistoryChangeRequest`
    /// reads or deletes persistent history and returns an `NSPersistentHistoryResult`.
    ///
    /// - Throws: `NSPersistentStoreUnsupportedRequestTypeError` (134091) for a request of
    ///   another kind, or a batch request for a store other than SQLite.
    open func execute(_ request: NSPersistentStoreRequest) throws -> NSPersistentStoreResult {
        checkConcurrency(of: "execute(_:)")
        if let asynchronous = request as? AsynchronousFetchStarting {
            return asynchronous.start(in: self)
        }
        let coordinator = try requireCoordinator()
        if let executed = request as? CoordinatorExecutedRequest {
            return try executed.execute(in: coordinator, for: self)
        }
        if let result = try coordinator.executeBatchRequest(request, with: self) {
            return result
        }
        throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "The context cannot execute a request of type \(Swift.type(of: request)).")
    }

    /// Executes a fetch request and returns its results.
    ///
    /// - Throws: an error for a request without a valid entity, a predicate or sort key the
    ///   entity does not have, an unparsable predicate, or a store failure.
    open func fetch<T>(_ request: NSFetchRequest<T>) throws -> [T] where T: NSFetchRequestResult {
        checkConcurrency(of: "fetch(_:)")
        return try fetchImplementation(request)
    }

    /// The number of objects a fetch request would return.
    open func count<T>(for request: NSFetchRequest<T>) throws -> Int where T: NSFetchRequestResult {
        checkConcurrency(of: "count(for:)")
        return try countImplementation(for: request)
    }

    // MARK: Changes

    /// Whether the context has unsaved changes.
    open var hasChanges: Bool {
        changedObjects.contains { $0.hasChanges }
    }

    /// Objects inserted and not saved yet.
    open var insertedObjects: Set<NSManagedObject> {
        Set(changedObjects.filter(\.isInserted))
    }

    /// Objects with unsaved changes (neither inserted nor deleted).
    open var updatedObjects: Set<NSManagedObject> {
        Set(changedObjects.filter(\.isUpdated))
    }

    /// Objects that will be deleted at the next save.
    open var deletedObjects: Set<NSManagedObject> {
        Set(changedObjects.filter(\.isDeleted))
    }

    /// Every object registered in the context.
    open var registeredObjects: Set<NSManagedObject> {
        var objects = Set(registry.allObjects)
        for object in changedObjects where object.isInserted { objects.insert(object) }
        return objects
    }

    /// Processes the changes of the current event: propagates deletes (when
    /// `propagatesDeletesAtEndOfEvent` is true), registers the changes with the undo manager as
    /// one undo action and closes the event's undo group, and posts
    /// `NSManagedObjectContextObjectsDidChange`.
    open func processPendingChanges() {
        processPendingChangesImplementation()
    }

    /// Saves the context's changes to its stores, in one transaction per store.
    ///
    /// Pending changes are processed, `willSave()` runs on each changed object, every object is
    /// validated (all errors are collected), uniqueness constraints are checked, and the changes
    /// are written. Conflicts with changes saved elsewhere, and duplicates, are resolved by the
    /// `mergePolicy`. On failure nothing is written and the context keeps its changes.
    ///
    /// - Throws: the validation error (one, or 1560 with all of them); under `NSErrorMergePolicy`,
    ///   133020 for objects changed in their store since they were read and 133021 for
    ///   uniqueness-constraint duplicates, with the conflicts under `conflictList`; 133010 for a
    ///   relationship between objects of two stores; or the store's error.
    open func save() throws {
        checkConcurrency(of: "save()")
        try saveImplementation()
    }

    /// Sends an undo message to the context's undo manager, asking it to reverse the latest
    /// changes applied to objects in the object graph.
    ///
    /// The context processes its pending changes first, so that the changes of the current event
    /// form the undo group this undoes. Without an undo manager, the call does nothing.
    open func undo() {
        checkConcurrency(of: "undo()")
        guard let undoManager else { return }
        processPendingChanges()
        undoManager.undo()
    }

    /// Sends a redo message to the context's undo manager, asking it to reverse the latest undo
    /// operation applied to objects in the object graph.
    ///
    /// The context processes its pending changes first; if there were any, they cleared the redo
    /// stack, so there is nothing left to redo. Without an undo manager, the call does nothing.
    open func redo() {
        checkConcurrency(of: "redo()")
        guard let undoManager else { return }
        processPendingChanges()
        undoManager.redo()
    }

    /// Removes everything from the undo stack, discards all inserts and deletes, and restores
    /// updated objects to their last committed values, without refetching them.
    open func rollback() {
        checkConcurrency(of: "rollback()")
        rollbackImplementation()
    }

    /// Returns the context to its base state: every registered object is forgotten (references
    /// to them become invalid), and the undo manager's actions are removed.
    open func reset() {
        checkConcurrency(of: "reset()")
        resetImplementation()
    }

    /// Turns an object into a fault (discarding its changes) or, with `flag`, reloads it and
    /// re-applies its changes.
    open func refresh(_ object: NSManagedObject, mergeChanges flag: Bool) {
        checkConcurrency(of: "refresh(_:mergeChanges:)")
        refreshImplementation(object, mergeChanges: flag)
    }

    /// Refreshes every registered object, keeping their unsaved changes.
    open func refreshAllObjects() {
        for object in registeredObjects {
            refresh(object, mergeChanges: true)
        }
    }

    // MARK: Query generations

    /// The token of the query generation the context reads: nil when it reads the latest data
    /// (the default, and always for a child context), `NSQueryGenerationToken.current` while it
    /// waits to be pinned at its next read.
    open var queryGenerationToken: NSQueryGenerationToken? {
        queryGenerationTokenImplementation
    }

    /// Pins the context to a query generation: `NSQueryGenerationToken.current` for the data as
    /// it is at the context's next read, another context's `queryGenerationToken` for that
    /// context's generation, or nil to read the latest data again.
    ///
    /// A pinned context's fetches and faults see the stores as they were when it was pinned,
    /// whatever other contexts save meanwhile; `save()`, `reset()` and merges move it to the
    /// latest data, and it is pinned again at its next read. SQLite stores in WAL mode (the
    /// default) support generations; other stores keep reading their current data.
    ///
    /// - Throws: an error for a child context, or for a token of another coordinator's stores.
    open func setQueryGenerationFrom(_ generation: NSQueryGenerationToken?) throws {
        checkConcurrency(of: "setQueryGenerationFrom(_:)")
        try setQueryGenerationImplementation(generation)
    }

    /// Marks an object for conflict detection at the next save, even if it has no changes: the
    /// save fails (or the merge policy resolves the conflict) when another context changed or
    /// deleted its row since this context read it. Objects a save writes are always checked.
    open func detectConflicts(for object: NSManagedObject) {
        checkConcurrency(of: "detectConflicts(for:)")
        detectConflictsImplementation(for: object)
    }

    open override var description: String {
        "<NSManagedObjectContext: \(name ?? "unnamed")> (\(concurrencyType))"
    }
}
