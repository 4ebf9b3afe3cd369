/// Infers the mapping model of a lightweight migration (`spec/semantics.md` MIG-8 to MIG-10).
///
/// Destination entities and properties find their sources by canonical name: the
/// `renamingIdentifier` when there is one, otherwise the name, tried against the source's
/// canonical names first and its plain names second.
struct MappingInference {
    let source: NSManagedObjectModel
    let destination: NSManagedObjectModel

    func mappingModel() throws -> NSMappingModel {
        let pairs = try entityPairs()
        try checkHierarchies(pairs)
        let model = NSMappingModel()
        var mapped = Set<ObjectIdentifier>()
        for destinationEntity in destination.entities {
            guard let sourceEntity = pairs[ObjectIdentifier(destinationEntity)] else {
                model.entityMappings.append(addMapping(for: destinationEntity))
                continue
            }
            mapped.insert(ObjectIdentifier(sourceEntity))
            model.entityMappings.append(try mapping(from: sourceEntity, to: destinationEntity))
        }
        for sourceEntity in source.entities where !mapped.contains(ObjectIdentifier(sourceEntity)) {
            model.entityMappings.append(removeMapping(for: sourceEntity))
        }
        return model
    }

    // MARK: Entities

    /// The source entity of each destination entity that has one, by destination entity.
    private func entityPairs() throws -> [ObjectIdentifier: NSEntityDescription] {
        let sources = CanonicalNames(source.entities, name: \.entityName, identifier: \.renamingIdentifier)
        var pairs: [ObjectIdentifier: NSEntityDescription] = [:]
        var claimedBy: [ObjectIdentifier: NSEntityDescription] = [:]
        for entity in destination.entities {
            guard let match = sources.match(name: entity.entityName, identifier: entity.renamingIdentifier) else { continue }
            if let other = claimedBy.updateValue(entity, forKey: ObjectIdentifier(match)) {
                throw Self.error("Entities \(other.entityName) and \(entity.entityName) both claim source entity \(match.entityName).")
            }
            pairs[ObjectIdentifier(entity)] = match
        }
        return pairs
    }

    /// Refuses destination hierarchies whose entities come from more than one source hierarchy:
    /// their rows would need new primary keys, which only a custom migration can hand out.
    private func checkHierarchies(_ pairs: [ObjectIdentifier: NSEntityDescription]) throws {
        var sourceRootByDestinationRoot: [ObjectIdentifier: NSEntityDescription] = [:]
        for entity in destination.entities {
            guard let sourceEntity = pairs[ObjectIdentifier(entity)] else { continue }
            let root = ObjectIdentifier(entity.rootEntity)
            if let known = sourceRootByDestinationRoot[root], known !== sourceEntity.rootEntity {
                throw Self.error("Entity \(entity.entityName) joins the hierarchy of \(entity.rootEntity.entityName), which holds entities of source hierarchies \(known.entityName) and \(sourceEntity.rootEntity.entityName); merging hierarchies cannot be inferred.")
            }
            sourceRootByDestinationRoot[root] = sourceEntity.rootEntity
        }
    }

    private func addMapping(for entity: NSEntityDescription) -> NSEntityMapping {
        let mapping = NSEntityMapping()
        mapping.name = "IEM_Add_\(entity.entityName)"
        mapping.mappingType = .addEntityMappingType
        mapping.destinationEntityName = entity.entityName
        mapping.destinationEntityVersionHash = entity.versionHash
        return mapping
    }

    private func removeMapping(for entity: NSEntityDescription) -> NSEntityMapping {
        let mapping = NSEntityMapping()
        mapping.name = "IEM_Remove_\(entity.entityName)"
        mapping.mappingType = .removeEntityMappingType
        mapping.sourceEntityName = entity.entityName
        mapping.sourceEntityVersionHash = entity.versionHash
        return mapping
    }

    private func mapping(from sourceEntity: NSEntityDescription, to entity: NSEntityDescription) throws -> NSEntityMapping {
        let mapping = NSEntityMapping()
        let unchanged = sourceEntity.versionHash == entity.versionHash
        mapping.name = (unchanged ? "IEM_Copy_" : "IEM_Transform_") + entity.entityName
        mapping.mappingType = unchanged ? .copyEntityMappingType : .transformEntityMappingType
        mapping.sourceEntityName = sourceEntity.entityName
        mapping.sourceEntityVersionHash = sourceEntity.versionHash
        mapping.destinationEntityName = entity.entityName
        mapping.destinationEntityVersionHash = entity.versionHash
        let sources = CanonicalNames(sourceEntity.properties.filter { !$0.isTransient }, name: \.name, identifier: \.renamingIdentifier)
        var attributes: [NSPropertyMapping] = []
        var relationships: [NSPropertyMapping] = []
        for property in entity.properties where !property.isTransient {
            let match = sources.match(name: property.name, identifier: property.renamingIdentifier)
            switch property {
            case let attribute as NSAttributeDescription:
                attributes.append(try attributeMapping(attribute, from: match, in: entity))
            case let relationship as NSRelationshipDescription:
                relationships.append(try relationshipMapping(relationship, from: match, in: entity))
            default:
                continue
            }
        }
        mapping.attributeMappings = attributes
        mapping.relationshipMappings = relationships
        return mapping
    }

    // MARK: Properties

    private func attributeMapping(_ attribute: NSAttributeDescription, from match: NSPropertyDescription?, in entity: NSEntityDescription) throws -> NSPropertyMapping {
        guard let match else { return NSPropertyMapping(name: attribute.name, valueExpression: nil) }
        guard let sourceAttribute = match as? NSAttributeDescription else {
            throw Self.error("Attribute \(entity.entityName).\(attribute.name) was relationship \(match.name); a relationship cannot become an attribute.")
        }
        guard AttributeConversion(from: sourceAttribute.attributeType, to: attribute.attributeType) != nil else {
            throw Self.error("Attribute \(entity.entityName).\(attribute.name) changes type from \(sourceAttribute.attributeType) to \(attribute.attributeType), which cannot be inferred.")
        }
        return NSPropertyMapping(name: attribute.name, valueExpression: NSExpression(format: "FUNCTION($source, \"valueForKey:\", %@)", sourceAttribute.name))
    }

    private func relationshipMapping(_ relationship: NSRelationshipDescription, from match: NSPropertyDescription?, in entity: NSEntityDescription) throws -> NSPropertyMapping {
        guard let match else { return NSPropertyMapping(name: relationship.name, valueExpression: nil) }
        let path = "\(entity.entityName).\(relationship.name)"
        guard let sourceRelationship = match as? NSRelationshipDescription else {
            throw Self.error("Relationship \(path) was attribute \(match.name); an attribute cannot become a relationship.")
        }
        if sourceRelationship.isToMany && !relationship.isToMany {
            throw Self.error("Relationship \(path) changes from to-many to to-one, which cannot be inferred.")
        }
        let expected = relationship.destinationEntity.flatMap { destinationEntity in
            CanonicalNames(source.entities, name: \.entityName, identifier: \.renamingIdentifier)
                .match(name: destinationEntity.entityName, identifier: destinationEntity.renamingIdentifier)
        }
        guard let expected, let sourceDestination = sourceRelationship.destinationEntity,
              expected.selfAndDescendants.contains(where: { $0 === sourceDestination }) else {
            throw Self.error("Relationship \(path) changes its destination from \(sourceRelationship.destinationEntity?.entityName ?? "nil") to \(relationship.destinationEntity?.entityName ?? "nil"), which cannot be inferred.")
        }
        return NSPropertyMapping(
            name: relationship.name,
            valueExpression: NSExpression(
                format: "FUNCTION($manager, \"destinationInstancesForSourceRelationshipNamed:sourceInstances:\", %@, FUNCTION($source, \"valueForKey:\", %@))",
                sourceRelationship.name, sourceRelationship.name
            )
        )
    }

    static func error(_ reason: String) -> NSError {
        CoreDataError.make(NSInferredMappingModelError, "Can't find or automatically infer mapping model for migration: \(reason)", userInfo: ["reason": reason])
    }
}

/// Looks things up by canonical name (`renamingIdentifier ?? name`), then by plain name.
private struct CanonicalNames<Element: AnyObject> {
    private var byCanonical: [String: Element] = [:]
    private var byName: [String: Element] = [:]

    init(_ elements: [Element], name: (Element) -> String, identifier: (Element) -> String?) {
        for element in elements {
            byName[name(element)] = byName[name(element)] ?? element
            let canonical = identifier(element) ?? name(element)
            byCanonical[canonical] = byCanonical[canonical] ?? element
        }
    }

    func match(name: String, identifier: String?) -> Element? {
        let canonical = identifier ?? name
        return byCanonical[canonical] ?? byName[canonical]
    }
}
