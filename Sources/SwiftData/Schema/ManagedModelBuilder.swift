internal import CoreData

/// Builds the Core Data model of a schema as SwiftData builds it, so that stores and version
/// hashes are those of Apple's SwiftData: entities named after the classes, each entity and
/// property renamed from its own name (or its original name), one configuration named
/// "default", and the schema's version as the model's version identifier.
enum ManagedModelBuilder {
    /// The configuration SwiftData's models put every entity in.
    static let configurationName = "default"

    static func model(for schema: Schema, configurations: [String: Set<String>] = [:]) throws -> NSManagedObjectModel {
        var entities: [String: NSEntityDescription] = [:]
        for schemaEntity in schema.entities {
            entities[schemaEntity.name] = try entity(for: schemaEntity)
        }
        for schemaEntity in schema.entities {
            try relate(schemaEntity, in: entities)
        }
        for schemaEntity in schema.entities {
            pairInverses(of: schemaEntity, in: entities)
        }
        let model = NSManagedObjectModel()
        let ordered = schema.entities.compactMap { entities[$0.name] }
        model.entities = ordered
        model.setEntities(ordered, forConfigurationName: configurationName)
        for (name, entityNames) in configurations {
            model.setEntities(ordered.filter { entityNames.contains($0.entityName) }, forConfigurationName: name)
        }
        model.versionIdentifiers = [schema.version.description]
        model.freeze()
        for schemaEntity in schema.entities {
            guard let entity = entities[schemaEntity.name], let modelType = schemaEntity.modelType else { continue }
            entity.instanceClass = modelType.modelObjectClass
            entity.runtimeCompanion = EntityBinding(modelType: modelType, entity: entity, schemaEntity: schemaEntity)
        }
        return model
    }

    private static func entity(for schemaEntity: Schema.Entity) throws -> NSEntityDescription {
        guard schemaEntity.modelType != nil else {
            throw SwiftDataError.schemaProblem("The entity \(schemaEntity.name) has no model class.")
        }
        let entity = NSEntityDescription()
        entity.name = schemaEntity.name
        entity.managedObjectClassName = schemaEntity.name
        entity.renamingIdentifier = schemaEntity.name
        entity.properties = try schemaEntity.storedProperties.compactMap { property in
            guard let attribute = property as? Schema.Attribute else { return nil }
            return try self.attribute(for: attribute, of: schemaEntity)
        }
        entity.uniquenessConstraints = schemaEntity.uniquenessConstraints
        entity.indexes = schemaEntity.indices.enumerated().map { position, names in
            NSFetchIndexDescription(
                name: "\(schemaEntity.name)_index_\(position)",
                elements: names.map { NSFetchIndexElementDescription(property: entity.propertiesByName[$0] ?? NSAttributeDescription(), collationType: .binary) })
        }
        return entity
    }

    private static func attribute(for attribute: Schema.Attribute, of entity: Schema.Entity) throws -> NSAttributeDescription {
        guard let codec = attribute.codec else {
            throw SwiftDataError.schemaProblem("\(entity.name).\(attribute.name) has the type \(attribute.valueType), which SwiftData cannot persist.")
        }
        let description = Self.description(for: codec)
        description.name = attribute.name
        description.renamingIdentifier = attribute.originalName
        description.attributeType = codec.attributeType
        description.isOptional = attribute.isOptional
        description.isTransient = attribute.isTransient
        description.versionHashModifier = attribute.hashModifier
        description.allowsExternalBinaryDataStorage = attribute.options.contains(.externalStorage)
        description.preservesValueInHistoryOnDeletion = attribute.options.contains(.preserveValueOnDeletion)
        description.allowsCloudEncryption = attribute.options.contains(.allowsCloudEncryption)
        if let transformerName = attribute.options.lazy.compactMap(\.transformerName).first {
            description.valueTransformerName = transformerName
        }
        if let defaultValue = attribute.defaultValue {
            description.defaultValue = codec.encode(defaultValue)
        }
        return description
    }

    /// A composite attribute with the elements of a structure's shape, or a plain attribute.
    private static func description(for codec: any AttributeCodec) -> NSAttributeDescription {
        guard let composite = codec as? any CompositeAttributeCodec else { return NSAttributeDescription() }
        let description = NSCompositeAttributeDescription()
        description.elements = composite.elementDescriptions()
        return description
    }

    private static func relate(_ schemaEntity: Schema.Entity, in entities: [String: NSEntityDescription]) throws {
        guard let entity = entities[schemaEntity.name] else { return }
        var properties = entity.properties
        for relationship in schemaEntity.storedProperties.compactMap({ $0 as? Schema.Relationship }) {
            guard let destination = entities[relationship.destination] else {
                throw SwiftDataError.schemaProblem("\(schemaEntity.name).\(relationship.name) refers to \(relationship.destination), which is not in the schema.")
            }
            let description = NSRelationshipDescription()
            description.name = relationship.name
            description.renamingIdentifier = relationship.originalName
            description.destinationEntity = destination
            description.isOptional = relationship.isOptional
            description.versionHashModifier = relationship.hashModifier
            description.deleteRule = deleteRule(relationship.deleteRule)
            if relationship.isToOneRelationship {
                description.maxCount = 1
            } else {
                description.minCount = relationship.minimumModelCount ?? 0
                description.maxCount = relationship.maximumModelCount ?? 0
                description.mayBeEmpty = true
            }
            properties.append(description)
        }
        entity.properties = properties
    }

    private static func pairInverses(of schemaEntity: Schema.Entity, in entities: [String: NSEntityDescription]) {
        guard let entity = entities[schemaEntity.name] else { return }
        for relationship in schemaEntity.storedProperties.compactMap({ $0 as? Schema.Relationship }) {
            guard let inverseName = relationship.inverseName,
                  let description = entity.relationshipsByName[relationship.name],
                  let inverse = entities[relationship.destination]?.relationshipsByName[inverseName]
            else { continue }
            description.inverseRelationship = inverse
        }
    }

    private static func deleteRule(_ rule: Schema.Relationship.DeleteRule) -> NSDeleteRule {
        switch rule {
        case .noAction: .noActionDeleteRule
        case .nullify: .nullifyDeleteRule
        case .cascade: .cascadeDeleteRule
        case .deny: .denyDeleteRule
        }
    }
}

extension PersistentModel {
    /// The class of the context objects behind models of this class.
    static var modelObjectClass: NSManagedObject.Type { ModelObject<Self>.self }

    /// What makes the models of the class's context objects.
    static var modelMaker: (AnyModelObject) -> AnyObject { ModelObject<Self>.modelMaker }
}
