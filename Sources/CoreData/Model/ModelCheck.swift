/// Consistency checks a model must pass before a coordinator can use it.
///
/// Apple raises when a store is added with an inconsistent model; we report the first problem as
/// an error instead. Names must be identifiers, because the SQLite store builds table, column and
/// index names from them.
enum ModelCheck {
    /// A description of the first problem found, or nil when the model is consistent.
    static func problem(in model: NSManagedObjectModel) -> String? {
        var names = Set<String>()
        for entity in model.entities {
            guard let name = entity.name, isIdentifier(name) else {
                return "the entity name '\(entity.name ?? "")' is not an identifier (letters, digits and underscores, not starting with a digit)."
            }
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
            guard isIdentifier(property.name) else {
                return "the property name '\(name).\(property.name)' is not an identifier."
            }
            guard propertyNames.insert(property.name).inserted else {
                return "'\(name)' has two properties named '\(property.name)'."
            }
            if let problem = problem(in: property, of: entity, model: model) { return problem }
        }
        for index in entity.indexes where !isIdentifier(index.name) {
            return "the fetch index name '\(name).\(index.name)' is not an identifier."
        }
        for constraint in entity.uniquenessConstraints {
            for element in constraint {
                let property = (element as? NSPropertyDescription)?.name ?? "\(element)"
                guard propertyNames.contains(property) else {
                    return "the uniqueness constraint of '\(name)' names '\(property)', which is not one of its properties."
                }
            }
        }
        return nil
    }

    private static func problem(in property: NSPropertyDescription, of entity: NSEntityDescription, model: NSManagedObjectModel) -> String? {
        let name = "\(entity.entityName).\(property.name)"
        if property is NSDerivedAttributeDescription {
            return "the derived attribute '\(name)' is not supported yet."
        }
        if let attribute = property as? NSAttributeDescription, !attribute.isTransient {
            switch attribute.attributeType {
            case .undefinedAttributeType, .objectIDAttributeType:
                return "the attribute '\(name)' has a type that only transient attributes may have."
            case .compositeAttributeType:
                guard let composite = attribute as? NSCompositeAttributeDescription else {
                    return "the composite attribute '\(name)' is not an NSCompositeAttributeDescription."
                }
                if let problem = problem(inElementsOf: composite, named: name) { return problem }
            default:
                break
            }
        }
        guard let relationship = property as? NSRelationshipDescription else { return nil }
        guard let destination = relationship.destinationEntity, destination.managedObjectModel === model else {
            return "the relationship '\(name)' has no destination entity in the model."
        }
        if let inverse = relationship.inverseRelationship, !destination.properties.contains(where: { $0 === inverse }) {
            return "the inverse of '\(name)' is not a relationship of '\(destination.entityName)'."
        }
        return nil
    }

    /// The first problem of a composite's elements: each is an attribute of a type a composite
    /// may hold (not undefined or an object ID, not stored externally), under a name of its own.
    private static func problem(inElementsOf composite: NSCompositeAttributeDescription, named name: String) -> String? {
        guard !composite.elements.isEmpty else { return "the composite attribute '\(name)' has no elements." }
        var elementNames = Set<String>()
        for element in composite.elements {
            let elementName = "\(name).\(element.name)"
            guard isIdentifier(element.name) else { return "the element name '\(elementName)' is not an identifier." }
            guard elementNames.insert(element.name).inserted else { return "'\(name)' has two elements named '\(element.name)'." }
            switch element.attributeType {
            case .undefinedAttributeType, .objectIDAttributeType:
                return "the element '\(elementName)' has a type a composite attribute cannot hold."
            case .binaryDataAttributeType where element.allowsExternalBinaryDataStorage:
                return "the element '\(elementName)' stores its data externally, which a composite attribute cannot."
            case .compositeAttributeType:
                guard let nested = element as? NSCompositeAttributeDescription else {
                    return "the composite element '\(elementName)' is not an NSCompositeAttributeDescription."
                }
                if let problem = problem(inElementsOf: nested, named: elementName) { return problem }
            default:
                continue
            }
        }
        return nil
    }

    /// Whether a name is an identifier: ASCII letters, digits and underscores, not starting with a digit.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first else { return false }
        let letters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
        let digits = CharacterSet(charactersIn: "0123456789")
        return letters.contains(first) && name.unicodeScalars.allSatisfy { letters.contains($0) || digits.contains($0) }
    }
}
