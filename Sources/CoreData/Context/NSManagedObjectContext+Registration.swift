// Uniquing: one object per record per context, faults for records not loaded yet, and IDs.
extension NSManagedObjectContext {
    /// Registers an object under an ID.
    func register(_ object: NSManagedObject, as objectID: NSManagedObjectID) {
        registry.register(object, as: objectID.identity)
        if retainsRegisteredObjects { retainedObjects.append(object) }
        reportRegistrations()
    }

    /// Moves an object's registration to a new ID (a temporary ID becoming permanent).
    func reregister(_ object: NSManagedObject, as objectID: NSManagedObjectID) {
        registry.withLock { reregister(object, as: objectID, in: &$0) }
        reportRegistrations()
    }

    /// Tells the stores that hear of registrations (`NSIncrementalStore`) which of their objects
    /// the context registered and unregistered since it last told them: at the end of each
    /// operation that registers or unregisters objects, objects released since included. A
    /// context of other stores pays one atomic load.
    func reportRegistrations() {
        guard registry.mayHoldReports, let coordinator = persistentStoreCoordinator else { return }
        coordinator.reportRegistrations { registry.takeReports() }
    }

    /// Moves an object's registration to a new ID, inside `registry.withLock`, so that a save
    /// moves all its inserts under one lock. Replacing the object's ID releases no managed
    /// object (an ID holds none), as the lock requires.
    func reregister(_ object: NSManagedObject, as objectID: NSManagedObjectID, in registered: inout RegisteredObjects) {
        if let identifier = object.identifier { registered.remove(identifier.identity, matching: nil) }
        object.assignObjectID(objectID)
        registered.register(object, as: objectID.identity)
        if retainsRegisteredObjects { retainedObjects.append(object) }
    }

    func objectImplementation(with objectID: NSManagedObjectID) -> NSManagedObject {
        if let registered = registry.object(for: objectID.identity) { return registered }
        return makeFault(for: objectID, snapshot: nil)
    }

    func existingObjectImplementation(with objectID: NSManagedObjectID) throws -> NSManagedObject {
        if let registered = registry.object(for: objectID.identity) {
            if registered.isFault {
                let load = registered.snapshot.flatMap { isStale($0) ? nil : FaultLoad.row($0) } ?? loadFault(registered)
                guard case .row(let snapshot) = load else { throw missingObjectError(objectID) }
                registered.materialize(from: snapshot)
            }
            return registered
        }
        guard parent != nil || !objectID.isTemporaryID, let snapshot = try loadSnapshot(for: objectID) else {
            throw missingObjectError(objectID)
        }
        let object = makeFault(for: objectID, snapshot: snapshot)
        object.materialize(from: snapshot)
        return object
    }

    /// A new fault registered for an ID, with the row's values when they are already known.
    func makeFault(for objectID: NSManagedObjectID, snapshot: RowSnapshot?) -> NSManagedObject {
        let object = makeUnregisteredFault(for: objectID, snapshot: snapshot, of: nil)
        register(object, as: objectID)
        return object
    }

    /// A new fault for an ID, not registered yet.
    func makeUnregisteredFault(for objectID: NSManagedObjectID, snapshot: RowSnapshot?, of objectClass: NSManagedObject.Type?) -> NSManagedObject {
        let object = makeUnregisteredFault(of: objectID.entity, snapshot: snapshot, class: objectClass)
        object.assignObjectID(objectID)
        return object
    }

    /// A new fault for a fetched row, not registered yet, whose ID is made from the row when
    /// asked for.
    func makeUnregisteredFault(of entity: NSEntityDescription, snapshot: RowSnapshot?, class objectClass: NSManagedObject.Type?) -> NSManagedObject {
        let object = (objectClass ?? self.objectClass(for: entity)).init(entity: entity, insertInto: nil)
        object.values = SlotValues()
        object.snapshot = snapshot
        object.flags = .fault
        object.managedObjectContext = self
        return object
    }

    /// The class of an entity's objects, resolved once per context.
    func objectClass(for entity: NSEntityDescription) -> NSManagedObject.Type {
        let key = ObjectIdentifier(entity)
        if let known = classesByEntity[key] { return known }
        let resolved = entity.instanceClass as? NSManagedObject.Type ?? ManagedObjectClassRegistry.shared.resolveClass(named: entity.managedObjectClassName)
        classesByEntity[key] = resolved
        return resolved
    }

    func obtainPermanentIDsImplementation(for objects: [NSManagedObject]) throws {
        let temporary = objects.filter { $0.objectID.isTemporaryID && $0.managedObjectContext === self }
        guard !temporary.isEmpty else { return }
        let coordinator = try requireCoordinator()
        var byStore: [ObjectIdentifier: (store: NSPersistentStore, objects: [NSManagedObject])] = [:]
        for object in temporary {
            guard let store = try assignedStore(for: object, coordinator: coordinator) ?? coordinator.store(forInserting: object.entity) else {
                throw CoreDataError.make(NSPersistentStoreOperationError, "No persistent store holds the entity \(object.entity.entityName).")
            }
            byStore[ObjectIdentifier(store), default: (store, [])].objects.append(object)
        }
        var renamed: [(temporary: NSManagedObjectID, permanent: NSManagedObjectID)] = []
        for (store, storeObjects) in byStore.values {
            let identifiers = try coordinator.obtainPermanentIDs(for: storeObjects, in: store)
            try checkPermanentIDs(identifiers, for: storeObjects, of: store)
            for (object, identifier) in zip(storeObjects, identifiers) {
                renamed.append((object.objectID, identifier))
                reregister(object, as: identifier)
            }
        }
        // Ancestors that hold these objects (inserted there and read here) follow the new IDs.
        parent?.adoptPermanentIDs(renamed)
    }

    /// Refuses the IDs a store gave for new objects unless there is one per object, permanent,
    /// of the store and the object's entity, and named by no other object: a store a program
    /// subclasses makes them itself.
    private func checkPermanentIDs(_ identifiers: [NSManagedObjectID], for objects: [NSManagedObject], of store: NSPersistentStore) throws {
        let isValid = identifiers.count == objects.count
            && zip(objects, identifiers).allSatisfy { object, identifier in
                !identifier.isTemporaryID && identifier.persistentStore === store && identifier.entity === object.entity
                    && (registry.object(for: identifier.identity).map { $0 === object } ?? true)
            }
            && Set(identifiers).count == identifiers.count
        guard !isValid else { return }
        throw CoreDataError.make(
            NSPersistentStoreOperationError,
            "The store of type '\(store.type)' gave new objects permanent IDs that are missing, temporary, of another store or entity, or already in use.",
            userInfo: [NSAffectedObjectsErrorKey: objects]
        )
    }

    private func missingObjectError(_ objectID: NSManagedObjectID) -> NSError {
        CoreDataError.make(
            NSManagedObjectReferentialIntegrityError,
            "The object with ID \(objectID) does not exist in its store.",
            userInfo: [NSAffectedObjectsErrorKey: [objectID]]
        )
    }

    func requireCoordinator() throws -> NSPersistentStoreCoordinator {
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError.make(NSCoreDataError, "The context has no persistent store coordinator.")
        }
        return coordinator
    }
}
