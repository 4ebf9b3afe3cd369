// Merging the saves of other contexts: the objects they updated are refreshed here (keeping this
// context's own unsaved changes), the objects they deleted leave this context, and
// ObjectsDidChange reports both.
extension NSManagedObjectContext {
    /// Merges a did-save notification's changes (objects or object IDs of another context of the
    /// same stores) into this context.
    func mergeChangesImplementation(fromContextDidSave notification: Notification) {
        let userInfo = notification.userInfo ?? [:]
        mergeChanges(
            inserted: Self.objectIDs(userInfo, idsKey: NSInsertedObjectIDsKey, objectsKey: NSInsertedObjectsKey),
            updated: Self.objectIDs(userInfo, idsKey: NSUpdatedObjectIDsKey, objectsKey: NSUpdatedObjectsKey),
            deleted: Self.objectIDs(userInfo, idsKey: NSDeletedObjectIDsKey, objectsKey: NSDeletedObjectsKey)
        )
    }

    /// The registered objects of some IDs, and the IDs with no registered object, in one lookup each.
    private func registeredObjects(of objectIDs: [NSManagedObjectID]) -> (registered: [NSManagedObject], unregistered: [NSManagedObjectID]) {
        var registered: [NSManagedObject] = []
        var unregistered: [NSManagedObjectID] = []
        for objectID in objectIDs {
            if let object = registry.object(for: objectID.identity) {
                registered.append(object)
            } else {
                unregistered.append(objectID)
            }
        }
        return (registered, unregistered)
    }

    /// Merges changes given as object IDs: refreshes the registered updated objects with their
    /// rows read in one query per store, removes the registered deleted objects, and faults in
    /// the inserted ones; then posts ObjectsDidChange and the did-merge notification.
    func mergeChanges(inserted: [NSManagedObjectID], updated: [NSManagedObjectID], deleted: [NSManagedObjectID]) {
        advanceQueryGeneration()
        let (refreshed, updatedUnregistered) = registeredObjects(of: updated)
        let rows = (try? currentRows(of: refreshed.filter { !$0.isFault }.map(\.objectID))) ?? [:]
        for object in refreshed {
            if object.isFault {
                object.snapshot = nil
            } else {
                refreshImplementation(object, mergeChanges: true, snapshot: rows[object.objectID.identity])
            }
        }
        let (removed, deletedUnregistered) = registeredObjects(of: deleted)
        // Deleted objects this context had not registered are reported as well, as objects
        // outside any context: a fetched results controller holds rows it made no object for.
        let deletedElsewhere = deletedUnregistered.map { makeUnregisteredFault(for: $0, snapshot: nil, of: nil) }
        for object in removed + deletedElsewhere {
            forget(object)
        }
        changedObjects.compact { !$0.flags.contains(.invalidated) }
        // Newly inserted objects are faulted in, as Apple documents, and reported; so are
        // updated objects this context had not registered, which may now match its fetches.
        let insertedHere = inserted.map(object(with:))
        let updatedElsewhere = updatedUnregistered.map(object(with:))
        guard !refreshed.isEmpty || !deleted.isEmpty || !insertedHere.isEmpty || !updatedElsewhere.isEmpty else { return }
        NotificationCenter.default.post(name: .NSManagedObjectContextObjectsDidChange, object: self, userInfo: [
            NSInsertedObjectsKey: Set(insertedHere),
            NSUpdatedObjectsKey: Set(refreshed + updatedElsewhere),
            NSRefreshedObjectsKey: Set(refreshed),
            NSDeletedObjectsKey: Set(removed + deletedElsewhere),
        ])
        NotificationCenter.default.post(name: NSManagedObjectContext.didMergeChangesObjectIDsNotification, object: self, userInfo: [
            NSInsertedObjectIDsKey: Set(insertedHere.map(\.objectID)),
            NSUpdatedObjectIDsKey: Set(refreshed.map(\.objectID)),
            NSRefreshedObjectIDsKey: Set(refreshed.map(\.objectID)),
            NSDeletedObjectIDsKey: Set(deleted),
        ])
    }

    /// The object IDs under a did-save notification's IDs key, or its objects key.
    private static func objectIDs(_ userInfo: [AnyHashable: Any], idsKey: String, objectsKey: String? = nil) -> [NSManagedObjectID] {
        if let objectsKey, let objects = userInfo[objectsKey] as? Set<NSManagedObject> { return objects.map(\.objectID) }
        if let objectsKey, let objects = userInfo[objectsKey] as? [NSManagedObject] { return objects.map(\.objectID) }
        if let identifiers = userInfo[idsKey] as? Set<NSManagedObjectID> { return Array(identifiers) }
        return userInfo[idsKey] as? [NSManagedObjectID] ?? []
    }

    /// Merges changes given as arrays of object IDs or their URIs into contexts, each on its queue.
    static func mergeRemoteChanges(_ changes: [AnyHashable: Any], into contexts: [NSManagedObjectContext]) {
        for context in contexts {
            context.performAndWait {
                let identifiers = { (key: String) -> [NSManagedObjectID] in
                    (changes[key] as? [Any] ?? (changes[key] as? Set<AnyHashable>).map { Array($0) } ?? []).compactMap { value in
                        if let identifier = value as? NSManagedObjectID { return identifier }
                        guard let uri = value as? URL else { return nil }
                        return context.persistentStoreCoordinator?.managedObjectID(forURIRepresentation: uri)
                    }
                }
                context.mergeChanges(inserted: identifiers(NSInsertedObjectsKey), updated: identifiers(NSUpdatedObjectsKey),
                                     deleted: identifiers(NSDeletedObjectsKey))
            }
        }
    }

    // MARK: Automatic merging

    /// Starts or stops merging the saves made to this context's parent, on this context's queue:
    /// the parent context's saves, or the saves the coordinator's other root contexts make.
    func observeParentSaves(_ observe: Bool) {
        if let observer = parentSaveObserver {
            NotificationCenter.default.removeObserver(observer)
            parentSaveObserver = nil
        }
        guard observe else { return }
        // The observer runs on the saving context's thread, so it must not read this context's
        // state: the parent and coordinator are captured now.
        parentSaveObserver = NotificationCenter.default.addObserver(forName: NSManagedObjectContext.didSaveObjectIDsNotification, object: nil, queue: nil) {
            [weak self, weak parent = parent, weak coordinator = persistentStoreCoordinator] notification in
            guard let self, let sender = notification.object as? NSManagedObjectContext, sender !== self else { return }
            if let parent {
                guard sender === parent else { return }
            } else {
                guard let coordinator, sender.parent == nil, sender.persistentStoreCoordinator === coordinator else { return }
            }
            let userInfo = notification.userInfo ?? [:]
            let inserted = Self.objectIDs(userInfo, idsKey: NSInsertedObjectIDsKey)
            let updated = Self.objectIDs(userInfo, idsKey: NSUpdatedObjectIDsKey)
            let deleted = Self.objectIDs(userInfo, idsKey: NSDeletedObjectIDsKey)
            self.perform { self.mergeChanges(inserted: inserted, updated: updated, deleted: deleted) }
        }
    }
}
