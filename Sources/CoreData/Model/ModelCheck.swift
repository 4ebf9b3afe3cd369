/// Consistency checks a model must pass before a coordinator can use it.
///
/// Apple raises when a store is added with an inconsistent model; we report the first problem as
/// an error instead.
enum ModelCheck {
    /// A description of the first problem found, or nil when the model is consistent.
    static func problem(in model: NSManagedObjectModel) -> String? {
        var names = Set<String>()
        for entity in model.entities {
            guard let name = entity.name, !name.isEmpty else { return "an entity has no name." }
            guard names.insert(name).inserted else { return "two entities are named '\(name)'." }
            if let problem = problem(in: entity, model: model) { return problem }
        }
        return nil
    }

    private static func problem(in entity: NSEntityDescription, model: NSManagedObjectModel) -> String? {
        let name = entity.entityName
        if let parent = entity.superentity, parent.managedObjectModel !== model {
            return "the superentity of '\(name)' is not in the model."
        }
        var propertyNames = Set<String>()
        for property in entity.properties {
            guard !property.name.isEmpty else { return "a property of '\(name)' has no name." }
            guard propertyNames.insert(property.name).inserted else {
                return "'\(name)' has two properties named '\(property.name)'."
            }
            guard let relationship = property as? NSRelationshipDescription else { continue }
            guard let destination = relationship.destinationEntity, destination.managedObjectModel === model else {
                return "the relationship '\(name).\(relationship.name)' has no destination entity in the model."
            }
            if let inverse = relationship.inverseRelationship,
               !(destination.properties.contains { $0 === inverse }) {
                return "the inverse of '\(name).\(relationship.name)' is not a relationship of '\(destination.entityName)'."
            }
        }
        return nil
    }
}
