/// A request that inserts rows of one entity into a SQLite store with SQL, without creating
/// objects in a context.
///
/// Each row comes from a dictionary of attribute values (`objectsToInsert`), from a
/// `dictionaryHandler` or from a `managedObjectHandler`; a handler returns true to stop, and the
/// dictionary or object it was given then is not inserted. Values are checked against the
/// attributes' types and attributes without a value get their default. Relationships cannot be
/// set. A row whose uniqueness-constraint values match an existing row updates that row.
open class NSBatchInsertRequest: NSPersistentStoreRequest {
    private let name: String
    private var namedEntity: NSEntityDescription?

    /// Creates a request that inserts the given dictionaries as objects of the named entity.
    public init(entityName: String, objects dictionaries: [[String: Any]]) {
        name = entityName
        namedEntity = nil
        objectsToInsert = dictionaries
        super.init()
    }

    /// Creates a request that inserts the given dictionaries as objects of an entity.
    public init(entity: NSEntityDescription, objects dictionaries: [[String: Any]]) {
        name = entity.name ?? ""
        namedEntity = entity
        objectsToInsert = dictionaries
        super.init()
    }

    /// Creates a request without an entity, which fails when it runs.
    public convenience override init() {
        self.init(entityName: "", objects: [])
    }

    /// Creates a request whose handler fills a dictionary for each row, returning true to stop.
    public convenience init(entity: NSEntityDescription, dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool) {
        self.init(entity: entity, objects: [])
        objectsToInsert = nil
        dictionaryHandler = handler
    }

    /// Creates a request whose handler fills a dictionary for each row, returning true to stop.
    public convenience init(entityName: String, dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool) {
        self.init(entityName: entityName, objects: [])
        objectsToInsert = nil
        dictionaryHandler = handler
    }

    /// Creates a request whose handler sets the attributes of an object for each row, returning
    /// true to stop.
    public convenience init(entity: NSEntityDescription, managedObjectHandler handler: @escaping (NSManagedObject) -> Bool) {
        self.init(entity: entity, objects: [])
        objectsToInsert = nil
        managedObjectHandler = handler
    }

    /// Creates a request whose handler sets the attributes of an object for each row, returning
    /// true to stop.
    public convenience init(entityName: String, managedObjectHandler handler: @escaping (NSManagedObject) -> Bool) {
        self.init(entityName: entityName, objects: [])
        objectsToInsert = nil
        managedObjectHandler = handler
    }

    /// The name of the entity whose objects are inserted.
    open var entityName: String { name }

    /// The entity whose objects are inserted; nil when the request was created with a name.
    open var entity: NSEntityDescription? { namedEntity }

    /// The rows to insert, as dictionaries of attribute values by attribute name.
    open var objectsToInsert: [[String: Any]]?

    /// Fills the dictionary it is given with a row's values, or returns true to stop.
    open var dictionaryHandler: ((NSMutableDictionary) -> Bool)?

    /// Sets the attributes of the object it is given, or returns true to stop.
    open var managedObjectHandler: ((NSManagedObject) -> Bool)?

    /// What the request returns (`.statusOnly` by default).
    open var resultType: NSBatchInsertRequestResultType = .statusOnly

    /// `NSPersistentStoreRequestType.batchInsertRequestType`.
    open override var requestType: NSPersistentStoreRequestType {
        .batchInsertRequestType
    }

    /// The entity the request names, as `model` describes it.
    func resolvedEntity(in model: NSManagedObjectModel) -> NSEntityDescription? {
        model.entitiesByName[namedEntity?.name ?? name]
    }
}
