/// Whether an object belongs in a fetched results controller's results while it tracks changes:
/// an object of the request's entity (or of a sub-entity, when the request includes them) that
/// matches its predicate.
struct FetchedResultsMembership {
    private let entities: Set<ObjectIdentifier>
    private let predicate: NSPredicate?

    init(request: NSFetchRequest<NSManagedObject>, entity: NSEntityDescription?) {
        let included = entity.map { request.includesSubentities ? $0.selfAndDescendants : [$0] } ?? []
        entities = Set(included.map(ObjectIdentifier.init))
        predicate = request.predicate
    }

    /// Whether the object is of a fetched entity, whatever its values.
    func isOfFetchedEntity(_ object: NSManagedObject) -> Bool {
        entities.contains(ObjectIdentifier(object.entity))
    }

    /// Whether the object belongs in the results now. A predicate that cannot be evaluated on it
    /// counts as not matching.
    func contains(_ object: NSManagedObject) -> Bool {
        guard isOfFetchedEntity(object), object.managedObjectContext != nil else { return false }
        // A fault whose row is gone turns out deleted when it loads: load it before asking.
        object.fireFault()
        guard !object.isDeleted else { return false }
        guard let predicate else { return true }
        return (try? predicate.evaluate(with: object, variables: [:])) ?? false
    }
}
