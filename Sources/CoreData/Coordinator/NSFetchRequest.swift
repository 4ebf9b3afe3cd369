/// A description of what to fetch: an entity, a predicate, an order, and how to return the results.
///
/// `ResultType` is the class of the results: an `NSManagedObject` subclass, `NSManagedObjectID`,
/// `NSDictionary`, `NSNumber`, or `NSFetchRequestResult` (any class).
open class NSFetchRequest<ResultType: NSFetchRequestResult>: NSPersistentStoreRequest {
    private var storedEntityName: String?

    /// The entity to fetch. Setting it also sets `entityName`.
    open var entity: NSEntityDescription? {
        didSet { storedEntityName = entity?.name ?? storedEntityName }
    }

    /// The name of the entity to fetch.
    open var entityName: String? {
        entity?.name ?? storedEntityName
    }

    /// The condition fetched objects satisfy; nil fetches every object of the entity.
    open var predicate: NSPredicate?

    /// The order of the results; nil leaves it unspecified.
    open var sortDescriptors: [NSSortDescriptor]?

    /// The largest number of results; 0 means no limit.
    open var fetchLimit: Int = 0

    /// The number of matching objects to skip.
    open var fetchOffset: Int = 0

    /// How many objects to load at a time; 0 loads all at once.
    open var fetchBatchSize: Int = 0

    /// The kind of results to return.
    open var resultType: NSFetchRequestResultType = .managedObjectResultType

    /// Whether objects of sub-entities match too. The default is true.
    open var includesSubentities: Bool = true

    /// Whether property values are fetched with the objects. The default is true.
    open var includesPropertyValues: Bool = true

    /// Whether objects come back as faults (their values in the row cache). The default is true.
    open var returnsObjectsAsFaults: Bool = true

    /// Relationship key paths whose destinations are fetched along with the results.
    open var relationshipKeyPathsForPrefetching: [String]?

    /// Whether the context's unsaved changes are taken into account. The default is true.
    open var includesPendingChanges: Bool = true

    /// Whether dictionary results leave out duplicates.
    open var returnsDistinctResults: Bool = false

    /// The properties a dictionary result holds: `NSPropertyDescription`s (attributes, to-one
    /// relationships, `NSExpressionDescription`s), property names or key paths.
    ///
    /// Once the request knows its entity (`entity` is set, or a context has executed the request
    /// and resolved `entityName`), the names of the entity's properties read back as their
    /// descriptions. Key paths and names the entity does not have read back as given.
    open var propertiesToFetch: [Any]? {
        get { storedPropertiesToFetch.map(resolvingPropertyNames) }
        set { storedPropertiesToFetch = newValue }
    }

    /// The properties dictionary results are grouped by: `NSPropertyDescription`s,
    /// `NSExpressionDescription`s, property names or key paths. Names read back as descriptions
    /// as in `propertiesToFetch`.
    open var propertiesToGroupBy: [Any]? {
        get { storedPropertiesToGroupBy.map(resolvingPropertyNames) }
        set { storedPropertiesToGroupBy = newValue }
    }

    private var storedPropertiesToFetch: [Any]?
    private var storedPropertiesToGroupBy: [Any]?

    /// The condition groups satisfy, for grouped dictionary results.
    open var havingPredicate: NSPredicate?

    /// Whether objects already registered are refreshed with the fetched values.
    open var shouldRefreshRefetchedObjects: Bool = false

    /// Creates a request with no entity; set `entity` before executing it.
    public override init() {
        super.init()
        // A request typed with a managed object subclass names the class that its entity's
        // `managedObjectClassName` means, as a generated `fetchRequest()` makes.
        if let resultClass = ResultType.self as? NSManagedObject.Type {
            ManagedObjectClassRegistry.shared.register(resultClass)
        }
    }

    /// Creates a request for the entity with a name.
    public convenience init(entityName: String) {
        self.init()
        storedEntityName = entityName
    }

    open override var requestType: NSPersistentStoreRequestType {
        .fetchRequestType
    }

    /// Executes the request in the context whose `perform` or `performAndWait` block is running.
    open func execute() throws -> [ResultType] {
        guard let context = NSManagedObjectContext.current else {
            throw CoreDataError.invalidRequest("NSFetchRequest.execute() must be called inside a managed object context's perform or performAndWait block.")
        }
        return try context.fetch(self)
    }

    open override func copy(with zone: NSZone? = nil) -> Any {
        converted(to: ResultType.self)
    }

    /// A copy of the request with another result type: Swift cannot cast between
    /// `NSFetchRequest`s of different result types, which Objective-C never distinguished.
    func converted<Other: NSFetchRequestResult>(to: Other.Type) -> NSFetchRequest<Other> {
        let copy = NSFetchRequest<Other>()
        copy.storedEntityName = storedEntityName
        copy.entity = entity
        copy.predicate = predicate
        copy.sortDescriptors = sortDescriptors
        copy.fetchLimit = fetchLimit
        copy.fetchOffset = fetchOffset
        copy.fetchBatchSize = fetchBatchSize
        copy.resultType = resultType
        copy.includesSubentities = includesSubentities
        copy.includesPropertyValues = includesPropertyValues
        copy.returnsObjectsAsFaults = returnsObjectsAsFaults
        copy.relationshipKeyPathsForPrefetching = relationshipKeyPathsForPrefetching
        copy.includesPendingChanges = includesPendingChanges
        copy.returnsDistinctResults = returnsDistinctResults
        copy.storedPropertiesToFetch = storedPropertiesToFetch
        copy.storedPropertiesToGroupBy = storedPropertiesToGroupBy
        copy.havingPredicate = havingPredicate
        copy.shouldRefreshRefetchedObjects = shouldRefreshRefetchedObjects
        copy.affectedStores = affectedStores
        return copy
    }

    /// `properties` with each name of a property of `entity` replaced by its description.
    private func resolvingPropertyNames(_ properties: [Any]) -> [Any] {
        guard let propertiesByName = entity?.propertiesByName else { return properties }
        return properties.map { property in
            (property as? String).flatMap { propertiesByName[$0] } ?? property
        }
    }

    open override var description: String {
        "<NSFetchRequest> (entity: \(entityName ?? "nil"); predicate: (\(predicate?.predicateFormat ?? "(null)")); sortDescriptors: (\(sortDescriptors.map { "\($0)" } ?? "(null)")); limit: \(fetchLimit); type: \(resultType.rawValue))"
    }
}
