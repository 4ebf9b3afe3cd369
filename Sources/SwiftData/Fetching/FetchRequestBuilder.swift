internal import CoreData

/// The Core Data fetch request of a fetch descriptor: its predicate and sort descriptors
/// translated to the engine's, so that the store answers them (in SQL, for a SQLite store).
struct FetchRequestBuilder<T: PersistentModel> {
    let request: NSFetchRequest<NSManagedObject>

    init(_ descriptor: FetchDescriptor<T>, context: ModelContext) throws {
        let names = KeyPathNames(T.self)
        request = NSFetchRequest<NSManagedObject>(entityName: Schema.entityName(of: T.self))
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
