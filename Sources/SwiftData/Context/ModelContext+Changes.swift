internal import CoreData

extension ModelContext {
    /// Inserts a model, and the models it is related to that are in no context yet; saving
    /// writes them to the store.
    public func insert<T: PersistentModel>(_ model: T) {
        let object = ModelObject.backing(of: model)
        guard object.managedObjectContext !== managedContext else { return }
        Self.insertGraph(of: object, into: managedContext)
        scheduleAutosave()
    }

    /// Deletes a model at the next save; a model that was never saved just leaves the context.
    public func delete<T: PersistentModel>(_ model: T) {
        let object = ModelObject.backing(of: model)
        guard object.managedObjectContext === managedContext else { return }
        managedContext.delete(object)
        scheduleAutosave()
    }

    /// Deletes, at the next save, every model of a class that matches a predicate (every model
    /// of the class without one).
    ///
    /// - Parameters:
    ///   - model: The model class.
    ///   - predicate: The models to delete; all of them when nil.
    ///   - includeSubclasses: Whether models of subclasses are deleted too.
    public func delete<T: PersistentModel>(model: T.Type, where predicate: Predicate<T>? = nil, includeSubclasses: Bool = true) throws {
        try checkSchema(has: T.self)
        var descriptor = FetchDescriptor<T>(predicate: predicate)
        descriptor.includePendingChanges = true
        let request: NSFetchRequest<NSManagedObject> = try FetchRequestBuilder.request(for: descriptor)
        request.includesSubentities = includeSubclasses
        request.includesPropertyValues = false
        for object in try managedContext.fetch(request) {
            managedContext.delete(object)
        }
        scheduleAutosave()
    }

    /// Saves the context's changes to the stores.
    public func save() throws {
        autosaveScheduled = false
        guard managedContext.hasChanges else { return }
        try managedContext.save()
    }

    /// Discards the context's unsaved changes: inserted models leave it, changed and deleted
    /// ones take back their saved values.
    public func rollback() {
        managedContext.rollback()
    }

    /// Runs a block of changes, then saves them. When the block throws, nothing is saved.
    public func transaction(block: () throws -> Void) throws {
        try block()
        try save()
    }

    /// Applies deletions' rules and relationships' inverses now rather than at the next save.
    public func processPendingChanges() {
        managedContext.processPendingChanges()
    }

    /// Inserts an object and every object it is related to, transitively, that is in no context;
    /// returns the object that stands for the given one (see `rebinding(_:to:)`).
    @discardableResult
    static func insertGraph(of object: AnyModelObject, into context: NSManagedObjectContext) -> AnyModelObject {
        insertGraphs(of: object, and: [], into: context)[ObjectIdentifier(object)] ?? object
    }

    /// Inserts objects and every object they are related to, transitively, that is in no
    /// context, as one graph; returns the objects that stand for those rebound, by the identity
    /// of the ones they replace.
    @discardableResult
    static func insertGraphs(of root: AnyModelObject, and others: [AnyModelObject], into context: NSManagedObjectContext) -> [ObjectIdentifier: AnyModelObject] {
        let graph = objectsOutsideContexts(from: root, and: others)
        let rebound = rebinding(graph, to: context.persistentStoreCoordinator?.managedObjectModel)
        for original in graph {
            let object = rebound[ObjectIdentifier(original)] ?? original
            context.insert(object)
            object.modelContextLifetime = ModelContext.owning(context)?.lifetime
            object.storeConstants()
        }
        return rebound
    }

    /// Gives each object of a graph of objects outside contexts that was made for another
    /// schema's entity an object of the given model's entity with the same values and
    /// relationships; returns the new objects, by the identity of the ones they replace.
    ///
    /// A new model starts in the entity of the last container made for its class, which is
    /// another schema's when a program has containers of several.
    private static func rebinding(_ graph: [AnyModelObject], to model: NSManagedObjectModel?) -> [ObjectIdentifier: AnyModelObject] {
        guard let model else { return [:] }
        var rebound: [ObjectIdentifier: AnyModelObject] = [:]
        for object in graph where object.entity.managedObjectModel !== model {
            // A class of another version of the schema stays as it is: saving it then fails.
            guard let entity = model.entitiesByName[object.entity.entityName],
                  EntityBinding.of(entity, bindingClass: object.binding.modelType) != nil
            else { continue }
            rebound[ObjectIdentifier(object)] = object.rebound(to: entity)
        }
        guard !rebound.isEmpty else { return [:] }
        let relationships = graph.map { ($0, $0.relationshipValues(through: rebound)) }
        for (object, values) in relationships {
            (rebound[ObjectIdentifier(object)] ?? object).setRelationshipValues(values)
        }
        return rebound
    }

    /// Objects and every object they are related to, transitively, that are in no context.
    private static func objectsOutsideContexts(from root: AnyModelObject, and others: [AnyModelObject]) -> [AnyModelObject] {
        var pending = others.filter { $0.managedObjectContext == nil }
        if root.managedObjectContext == nil {
            // A model with no new related models, as most inserts are, needs no set of those seen.
            if pending.isEmpty {
                root.collectRelatedObjectsOutsideContexts(into: &pending)
                if pending.isEmpty { return [root] }
            }
            pending.append(root)
        }
        var graph: [AnyModelObject] = []
        var seen: Set<ObjectIdentifier> = []
        while let object = pending.popLast() {
            guard object.managedObjectContext == nil, seen.insert(ObjectIdentifier(object)).inserted else { continue }
            graph.append(object)
            object.collectRelatedObjectsOutsideContexts(into: &pending)
        }
        return graph
    }

    /// Saves soon, on the context's actor, when autosave is on: for the main context and a
    /// model actor's, whose queues are the actors that use them. A context made elsewhere is
    /// used on its maker's thread, which its queue is not, so it saves when told to.
    func scheduleAutosave() {
        guard autosaveEnabled, runsOnItsQueue, !autosaveScheduled else { return }
        autosaveScheduled = true
        let context = UncheckedContext(self)
        managedContext.perform {
            try? context.modelContext.save()
        }
    }
}

/// A context carried to its own queue, where it runs.
// Only for contexts whose queue is the actor that uses them (`runsOnItsQueue`): the closure runs
// there, as every other use of the context does.
struct UncheckedContext: @unchecked Sendable {
    let modelContext: ModelContext

    init(_ modelContext: ModelContext) {
        self.modelContext = modelContext
    }
}
