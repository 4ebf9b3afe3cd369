internal import CoreData

/// The Core Data fetch requests of fetch descriptors: their predicates and sort descriptors
/// translated to the engine's, so that the store answers them (in SQL, for a SQLite store).
enum FetchRequestBuilder {
    /// The request of a descriptor, for objects or, with `.managedObjectIDResultType`, their IDs.
    static func request<T: PersistentModel, Result: NSFetchRequestResult>(
        for descriptor: FetchDescriptor<T>, resultType: NSFetchRequestResultType = .managedObjectResultType
    ) throws -> NSFetchRequest<Result> {
        let names = KeyPathNames(T.self)
        let request = NSFetchRequest<Result>(entityName: Schema.entityName(of: T.self))
        request.resultType = resultType
        if let predicate = descriptor.predicate {
            request.predicate = try PredicateTranslator.translate(predicate)
        }
        request.sortDescriptors = try descriptor.sortBy.map { try SortDescriptorTranslator.translate($0) }
        if let limit = descriptor.fetchLimit { request.fetchLimit = max(limit, 0) }
        if let offset = descriptor.fetchOffset { request.fetchOffset = max(offset, 0) }
        request.includesPendingChanges = descriptor.includePendingChanges
        if !descriptor.propertiesToFetch.isEmpty {
            request.propertiesToFetch = try descriptor.propertiesToFetch.map { try names.name(of: $0) }
        }
        if !descriptor.relationshipKeyPathsForPrefetching.isEmpty {
            request.relationshipKeyPathsForPrefetching = try descriptor.relationshipKeyPathsForPrefetching.map { try names.name(of: $0) }
        }
        return request
    }
}

/// The persisted property names of a model class's key paths.
struct KeyPathNames {
    private let names: [AnyKeyPath: String]
    private let type: any PersistentModel.Type

    init(_ type: any PersistentModel.Type) {
        self.type = type
        names = Dictionary(type.schemaMetadata.map { ($0.keypath, $0.name) }, uniquingKeysWith: { first, _ in first })
    }

    func name(of keyPath: AnyKeyPath) throws -> String {
        guard let name = names[keyPath] else {
            throw SwiftDataError.unsupportedKeyPath("\(keyPath) is not a persisted property of \(type).")
        }
        return name
    }
}
