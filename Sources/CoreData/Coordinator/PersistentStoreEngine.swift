/// What the coordinator and contexts need from a store. The built-in stores implement it; the
/// coordinator calls it under its lock, so implementations need no locking of their own.
package protocol PersistentStoreEngine: NSPersistentStore {
    /// Opens or creates the store and checks it against the model.
    func load(model: NSManagedObjectModel) throws

    /// Releases the store's resources.
    func unload()

    /// The rows matching a plan, in order, with their values.
    func fetchRows(_ plan: FetchPlan) throws -> [RowSnapshot]

    /// The IDs of the rows matching a plan, in order.
    func fetchObjectIDs(_ plan: FetchPlan) throws -> [NSManagedObjectID]

    /// The IDs of the rows matching a plan, in order, in their compact form.
    func fetchCompactObjectIDs(_ plan: FetchPlan) throws -> FetchedObjectIDs

    /// The IDs of the rows matching a plan, in order, in their compact form, each with the
    /// values of key paths (attributes, or attributes reached through to-one relationships) read
    /// by the same query, to sort by; nil when the store cannot read them that way.
    func fetchCompactObjectIDs(_ plan: FetchPlan, withValuesOf keyPaths: [String]) throws -> FetchedKeyedObjectIDs?

    /// The number of rows matching a plan.
    func countRows(_ plan: FetchPlan) throws -> Int

    /// Whether the store answers the fetch request expressions of a plan's predicate that the
    /// context hands it as `StoreSubfetch`es inside its own query.
    var compilesSubfetches: Bool { get }

    /// The dictionary results of a plan, with offset and limit applied to the dictionaries.
    func fetchDictionaries(_ plan: FetchPlan, shape: DictionaryFetchShape) throws -> [NSDictionary]

    /// The current row of an object, or nil when it no longer exists.
    func snapshot(for objectID: NSManagedObjectID) throws -> RowSnapshot?

    /// The current rows of several objects of this store, in one pass where the store can;
    /// objects whose rows no longer exist are left out.
    func snapshots(for objectIDs: [NSManagedObjectID]) throws -> [RowSnapshot]

    /// The destinations of a to-many relationship of an object, in order for ordered ones.
    func destinationIDs(of objectID: NSManagedObjectID, relationship: NSRelationshipDescription) throws -> [NSManagedObjectID]

    /// The destinations of a to-many relationship of several objects of this store, by owner, in
    /// as few queries as the store can (for prefetching).
    func destinationIDs(ofOwners owners: [NSManagedObjectID], relationship: NSRelationshipDescription) throws -> [NSManagedObjectID: [NSManagedObjectID]]

    /// The rows of the destinations of a to-many relationship of several objects, by owner, read
    /// with the destinations themselves; nil when the store cannot read them that way (the
    /// caller then asks for their IDs and rows separately).
    func destinationRows(ofOwners owners: [NSManagedObjectID], relationship: NSRelationshipDescription) throws -> [NSManagedObjectID: [RowSnapshot]]?

    /// Permanent IDs for new objects, in their order, reserved for good (`NSIncrementalStore`'s
    /// public method is its own).
    func obtainPermanentIDs(for objects: [NSManagedObject]) throws -> [NSManagedObjectID]

    /// Writes a save's changes inside a transaction that stays open until `finishSave`, so that a
    /// save touching several stores commits in all of them or in none. On an error the store has
    /// already rolled back; on a conflict it has written nothing, and either rolled back or, to
    /// keep other processes from changing the conflicting rows while the context resolves the
    /// conflict, kept them locked until the next `beginSave` or `saveDidEnd()`.
    func beginSave(_ changes: StoreSaveChanges) throws -> StoreSaveOutcome

    /// Commits, or rolls back, the transaction `beginSave` opened.
    func finishSave(committing: Bool) throws

    /// Tells the store that a context's save is over, committed or failed, after all its
    /// conflict rounds: a store that kept rows locked through a conflict releases them.
    func saveDidEnd()

    /// Whether `beginSave` writes for good, the store having no transaction to roll back (the
    /// stores a program subclasses): a save begins those last.
    var writesWithoutTransaction: Bool { get }

    /// The store's data as it is now, frozen for later reads; nil when the store cannot freeze
    /// its data (its reads then stay current).
    func openQueryGeneration() throws -> StoreQueryGeneration?

    /// Runs `body` with the store's reads seeing `generation`, one of its own frozen generations.
    func read<T>(at generation: StoreQueryGeneration, _ body: () throws -> T) throws -> T

    /// Tells the store which of its objects a context registered and unregistered, for the
    /// stores whose identity `StoreIdentityRegistry` reports registrations to.
    func contextDidChangeRegistrations(registered: [NSManagedObjectID], unregistered: [NSManagedObjectID])

    /// Starts calling `onCommit`, on a private queue, after commits to the store's file by any
    /// process or connection, until `unload()`; a store that cannot observe its file does nothing.
    func observeCommits(_ onCommit: @escaping @Sendable () -> Void)
}

extension PersistentStoreEngine {
    package func unload() {}

    package var writesWithoutTransaction: Bool { false }

    package var compilesSubfetches: Bool { false }

    package func openQueryGeneration() throws -> StoreQueryGeneration? { nil }

    package func read<T>(at generation: StoreQueryGeneration, _ body: () throws -> T) throws -> T { try body() }

    package func contextDidChangeRegistrations(registered: [NSManagedObjectID], unregistered: [NSManagedObjectID]) {}

    package func saveDidEnd() {}

    package func observeCommits(_ onCommit: @escaping @Sendable () -> Void) {}

    package func fetchObjectIDs(_ plan: FetchPlan) throws -> [NSManagedObjectID] {
        try fetchRows(plan).map(\.objectID)
    }

    package func countRows(_ plan: FetchPlan) throws -> Int {
        try fetchObjectIDs(plan).count
    }

    package func fetchCompactObjectIDs(_ plan: FetchPlan) throws -> FetchedObjectIDs {
        FetchedObjectIDs(try fetchObjectIDs(plan), store: self)
    }

    package func fetchCompactObjectIDs(_ plan: FetchPlan, withValuesOf keyPaths: [String]) throws -> FetchedKeyedObjectIDs? {
        nil
    }

    package func fetchDictionaries(_ plan: FetchPlan, shape: DictionaryFetchShape) throws -> [NSDictionary] {
        let rows = try fetchRows(plan.withoutPaging).map { StoredRow(row: $0, store: self) }
        return try DictionaryResultBuilder(shape: shape).results(for: rows, plan: plan)
    }

    package func snapshots(for objectIDs: [NSManagedObjectID]) throws -> [RowSnapshot] {
        try objectIDs.compactMap(snapshot(for:))
    }

    package func destinationRows(ofOwners owners: [NSManagedObjectID], relationship: NSRelationshipDescription) throws -> [NSManagedObjectID: [RowSnapshot]]? {
        nil
    }

    package func destinationIDs(ofOwners owners: [NSManagedObjectID], relationship: NSRelationshipDescription) throws -> [NSManagedObjectID: [NSManagedObjectID]] {
        var destinations: [NSManagedObjectID: [NSManagedObjectID]] = [:]
        for owner in owners {
            destinations[owner] = try destinationIDs(of: owner, relationship: relationship)
        }
        return destinations
    }
}

extension NSPersistentStore {
    /// The store's engine; a store class that has none cannot be used by a coordinator.
    func engine() throws -> PersistentStoreEngine {
        guard let engine = self as? PersistentStoreEngine else {
            throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "The store of type '\(type)' cannot be used by this coordinator.")
        }
        return engine
    }
}
