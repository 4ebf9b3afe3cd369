/// A request that updates the rows of an entity in a SQLite store with SQL, without loading them
/// into a context.
///
/// Objects registered in contexts keep their values until the program merges the updated
/// objects' IDs into them (`NSManagedObjectContext.mergeChanges(fromRemoteContextSave:into:)`).
/// The updated rows' versions change, so a context that saves older values of them meets a
/// merge conflict.
open class NSBatchUpdateRequest: NSPersistentStoreRequest {
    private let name: String
    private var namedEntity: NSEntityDescription?

    /// Creates a request that updates objects of the named entity.
    public init(entityName: String) {
        name = entityName
        namedEntity = nil
        super.init()
    }

    /// Creates a request that updates objects of an entity.
    public init(entity: NSEntityDescription) {
        name = entity.name ?? ""
        namedEntity = entity
        super.init()
    }

    /// The name of the entity whose objects are updated.
    open var entityName: String { name }

    /// The entity whose objects are updated; for a request created with a name, an empty
    /// description until the request has run and resolved the name against the model.
    open var entity: NSEntityDescription { namedEntity ?? NSEntityDescription() }

    /// Which objects to update; nil updates every object of the entity.
    open var predicate: NSPredicate?

    /// Whether objects of sub-entities are updated too (the default).
    open var includesSubentities: Bool = true

    /// The new values: keys are attribute names or `NSAttributeDescription`s, values are
    /// constants or `NSExpression`s evaluated against each row (`NSExpression(format: "count + 1")`).
    open var propertiesToUpdate: [AnyHashable: Any]?

    /// What the request returns (`.statusOnlyResultType` by default).
    open var resultType: NSBatchUpdateRequestResultType = .statusOnlyResultType

    /// `NSPersistentStoreRequestType.batchUpdateRequestType`.
    open override var requestType: NSPersistentStoreRequestType {
        .batchUpdateRequestType
    }

    /// The entity the request names, as `model` describes it; the request keeps it, as a fetch
    /// request keeps the entity its name resolves to.
    func resolvedEntity(in model: NSManagedObjectModel) -> NSEntityDescription? {
        let resolved = model.entitiesByName[namedEntity?.name ?? name]
        if namedEntity == nil { namedEntity = resolved }
        return resolved
    }
}
