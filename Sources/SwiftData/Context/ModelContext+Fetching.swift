internal import CoreData

extension ModelContext {
    /// The models a descriptor describes.
    ///
    /// The store evaluates the predicate and sorts; with `includePendingChanges` (the default),
    /// the context's unsaved changes count as if they were saved.
    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        try checkSchema(has: T.self)
        let request: NSFetchRequest<NSManagedObject> = try FetchRequestBuilder.request(for: descriptor)
        return models(of: try managedContext.fetch(request))
    }

    /// The models of fetched objects, made where they have none.
    private func models<T: PersistentModel>(of objects: [NSManagedObject]) -> [T] {
        // A loop over indices: `map` here, generic over the model class, reads the array through
        // a coroutine whose frame costs an allocation per element.
        var models: [T] = []
        models.reserveCapacity(objects.count)
        let lifetime = self.lifetime
        for index in objects.indices {
            // Through the object's class that is not generic: code generic over the model class
            // would look up the metadata of the generic class for each object.
            let object = unsafeDowncast(objects[index], to: AnyModelObject.self)
            models.append(unsafeDowncast(object.untypedModel(fetchedBy: lifetime), to: T.self))
        }
        return models
    }

    /// The models a descriptor describes, loaded in batches as the collection is read.
    ///
    /// Unsaved changes cannot be part of a batched fetch: with `includePendingChanges` set and
    /// unsaved changes in the context, the fetch throws `SwiftDataError.includePendingChangesWithBatchSize`.
    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws -> FetchResultsCollection<T> {
        if descriptor.includePendingChanges, hasChanges { throw SwiftDataError.includePendingChangesWithBatchSize }
        try checkSchema(has: T.self)
        let request: NSFetchRequest<NSManagedObject> = try FetchRequestBuilder.request(for: descriptor)
        request.fetchBatchSize = max(batchSize, 1)
        let results = try managedContext.fetchBatched(request)
        return FetchResultsCollection(count: results.count) { unsafeDowncast(results[$0], to: ModelObject<T>.self).typedModel }
    }

    /// The number of models a descriptor describes.
    public func fetchCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Int {
        try checkSchema(has: T.self)
        return try managedContext.count(for: FetchRequestBuilder.request(for: descriptor) as NSFetchRequest<NSManagedObject>)
    }

    /// The identifiers of the models a descriptor describes.
    public func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [PersistentIdentifier] {
        if descriptor.includePendingChanges, !descriptor.sortBy.isEmpty, hasChanges {
            throw SwiftDataError.sortingPendingChangesWithIdentifiers
        }
        try checkSchema(has: T.self)
        let request: NSFetchRequest<NSManagedObjectID> = try FetchRequestBuilder.request(for: descriptor, resultType: .managedObjectIDResultType)
        return try managedContext.fetch(request).map(PersistentIdentifier.init)
    }

    /// The identifiers of the models a descriptor describes, as a collection.
    ///
    /// Identifiers are small; the store reads them all at once, and `batchSize` is accepted as
    /// Apple's API takes it.
    public func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws -> FetchResultsCollection<PersistentIdentifier> {
        let identifiers = try fetchIdentifiers(descriptor)
        return FetchResultsCollection(count: identifiers.count) { identifiers[$0] }
    }

    /// Calls a block with each model a descriptor describes, loading them in batches and
    /// letting go of each batch's unchanged models after it, so that memory does not grow with
    /// the number of models.
    ///
    /// - Parameters:
    ///   - fetch: The models.
    ///   - batchSize: How many models load at once.
    ///   - allowEscapingMutations: Whether the block may change models; when false, a block that
    ///     leaves changes behind in the context stops the enumeration with an error.
    ///   - block: What to do with each model.
    public func enumerate<T: PersistentModel>(
        _ fetch: FetchDescriptor<T>, batchSize: Int = 5000, allowEscapingMutations: Bool = false, block: (T) throws -> Void
    ) throws {
        let hadChanges = hasChanges
        var batch = fetch
        batch.fetchLimit = max(batchSize, 1)
        var offset = fetch.fetchOffset ?? 0
        var remaining = fetch.fetchLimit ?? Int.max
        while remaining > 0 {
            batch.fetchOffset = offset
            batch.fetchLimit = min(max(batchSize, 1), remaining)
            let models = try self.fetch(batch)
            for model in models { try block(model) }
            if !allowEscapingMutations, !hadChanges, hasChanges {
                throw SwiftDataError(.modelValidationFailure, "The enumeration's block changed models without allowEscapingMutations.")
            }
            if !hasChanges {
                for model in models { managedContext.refresh(model.anyModelObject, mergeChanges: false) }
            }
            guard models.count == batch.fetchLimit else { return }
            offset += models.count
            remaining -= models.count
        }
    }

    /// Fails unless the container's schema has the model class: a class of another version of
    /// the schema has an entity of the same name, whose objects are not its models.
    func checkSchema<T: PersistentModel>(has type: T.Type) throws {
        let entity = managedContext.persistentStoreCoordinator?.managedObjectModel.entitiesByName[Schema.entityName(of: type)]
        guard let entity, EntityBinding.of(entity, bindingClass: type) != nil else {
            throw SwiftDataError(.configurationSchemaNotFoundInContainerSchema, "\(type) is not a model class of the container's schema.")
        }
    }

    /// The model with an identifier: the one in the context, or one whose values load when
    /// first read.
    public func model(for persistentModelID: PersistentIdentifier) -> any PersistentModel {
        let object = managedContext.object(with: persistentModelID.objectID)
        guard let modelObject = object as? AnyModelObject else {
            preconditionFailure("\(persistentModelID.entityName) is not an entity of this context's schema")
        }
        return modelObject.anyModel
    }

    /// The model with an identifier, when the context has it in memory.
    public func registeredModel<T: PersistentModel>(for persistentModelID: PersistentIdentifier) -> T? {
        (managedContext.registeredObject(for: persistentModelID.objectID) as? ModelObject<T>)?.typedModel
    }
}

/// The results of a batched fetch: models load a batch at a time, as they are read.
public struct FetchResultsCollection<Element>: RandomAccessCollection {
    private let elementCount: Int
    private let element: (Int) -> Element

    init(count: Int, element: @escaping (Int) -> Element) {
        self.elementCount = count
        self.element = element
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { elementCount }

    public subscript(position: Int) -> Element {
        element(position)
    }
}
