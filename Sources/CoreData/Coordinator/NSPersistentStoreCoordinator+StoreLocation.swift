// Moving a store of the coordinator to another location, and finding object IDs by URI.
extension NSPersistentStoreCoordinator {
    /// Changes the location of the specified persistent store.
    ///
    /// A SQLite store closes its connection and opens the store file at `url`, which must
    /// already exist and be a store this coordinator's model can open; no store is created.
    /// Objects that contexts hold keep the values they have until they are refreshed; faults and
    /// fetches read the new file. A copy of the store keeps its objects' IDs; the objects of
    /// another store file (another UUID) get IDs of their own. A store without a file (in
    /// memory) only takes the new URL.
    ///
    /// - Parameters:
    ///   - url: The new location for `store`.
    ///   - store: A persistent store of this coordinator.
    /// - Returns: `true` if the store was relocated, otherwise `false`: for a store of another
    ///   coordinator, or a location without a store the model can open (the store then stays
    ///   where it was, open).
    public func setURL(_ url: URL, for store: NSPersistentStore) -> Bool {
        withStores { stores in
            guard stores.contains(where: { $0 === store }) else { return false }
            guard let relocatable = store as? any RelocatableStore else {
                store.url = url
                return true
            }
            guard relocatable.relocate(to: url, model: managedObjectModel) else { return false }
            rowCache.removeRows(ofStore: store.identityNumber)
            return true
        }
    }

    /// Returns the object ID for a URI, in its string form, that `uriRepresentation()` made.
    ///
    /// - Parameter string: The absolute string of an object ID's URI representation, such as
    ///   `x-coredata://<store UUID>/<Entity>/p<primary key>`.
    /// - Returns: The object ID, or nil when the string is not such a URI or names no store of
    ///   this coordinator (see `managedObjectID(forURIRepresentation:)`).
    public func managedObjectID(for string: String) -> NSManagedObjectID? {
        URL(string: string).flatMap(managedObjectID(forURIRepresentation:))
    }
}

/// A store whose data lives at its URL, which moves by closing the store and opening the file at
/// the new location.
protocol RelocatableStore: NSPersistentStore {
    /// Opens the store at `url` in place of its current file; on failure the store reopens its
    /// current file. Returns whether it moved. Called under the coordinator's lock.
    func relocate(to url: URL, model: NSManagedObjectModel) -> Bool
}
