extension NSEntityDescription {
    /// The entity with a name in the model of a context's coordinator.
    public class func entity(forEntityName entityName: String, in context: NSManagedObjectContext) -> NSEntityDescription? {
        context.entitiesByName[entityName]
    }

    /// Creates an object of the named entity (of its class) and inserts it into a context.
    ///
    /// An entity name the model does not have is a programmer error and stops the program, as
    /// Apple's raises.
    public class func insertNewObject(forEntityName entityName: String, into context: NSManagedObjectContext) -> NSManagedObject {
        guard let entity = entity(forEntityName: entityName, in: context) else {
            preconditionFailure("+entityForName: could not locate an entity named '\(entityName)' in the context's model.")
        }
        return context.objectClass(for: entity).init(entity: entity, insertInto: context)
    }
}
