/// Reads model classes into a schema's entities: each class's persisted properties become
/// attributes and relationships, the classes they are related to join the schema, and
/// relationships without a declared inverse are paired as SwiftData pairs them.
struct SchemaBuilder {
    private(set) var entities: [Schema.Entity] = []

    init(_ types: [any PersistentModel.Type]) {
        var queue = types
        var seen: Set<ObjectIdentifier> = []
        while !queue.isEmpty {
            let type = queue.removeFirst()
            guard seen.insert(ObjectIdentifier(type)).inserted else { continue }
            let entity = Self.entity(of: type)
            entities.append(entity)
            queue += entity.relationships.compactMap(\.destinationType)
        }
        pairInverses()
    }

    private static func entity(of type: any PersistentModel.Type) -> Schema.Entity {
        let entity = Schema.Entity(Schema.entityName(of: type))
        entity.modelType = type
        entity.storedProperties = type.schemaMetadata.map(property(for:))
        let keyPathNames = KeyPathNames(type)
        entity.uniquenessConstraints = entity.storedProperties.filter(\.isUnique).map { [$0.name] }
        for constraint in type._$modelConstraints {
            let groups = constraint.keyPaths.map { $0.compactMap { try? keyPathNames.name(of: $0) } }
            switch constraint.kind {
            case .unique: entity.uniquenessConstraints += groups
            case .index: entity.indices += groups
            }
        }
        return entity
    }

    /// The attribute or relationship of one persisted property.
    private static func property(for metadata: Schema.PropertyMetadata) -> any SchemaProperty {
        let valueType = type(of: metadata.keypath).valueType
        let wrapped = unwrappedOptional(valueType)
        let base = wrapped ?? valueType
        if let destination = base as? any PersistentModel.Type {
            return relationship(for: metadata, valueType: valueType, destination: destination, holdsOneModel: true, isOptional: wrapped != nil)
        }
        if let array = base as? any ModelArray.Type {
            return relationship(for: metadata, valueType: valueType, destination: array.modelType, holdsOneModel: false, isOptional: wrapped != nil)
        }
        let options = (metadata.metadata as? Schema.Attribute)
        let attribute = Schema.Attribute(
            name: metadata.name,
            originalName: options?.originalName.nonEmpty,
            options: options?.options ?? [],
            valueType: valueType,
            defaultValue: metadata.defaultValue,
            hashModifier: options?.hashModifier)
        return attribute
    }

    private static func relationship(
        for metadata: Schema.PropertyMetadata, valueType: Any.Type, destination: any PersistentModel.Type, holdsOneModel: Bool, isOptional: Bool
    ) -> Schema.Relationship {
        let relationship = (metadata.metadata as? Schema.Relationship) ?? Schema.Relationship()
        relationship.name = metadata.name
        relationship.originalName = relationship.originalName.nonEmpty ?? metadata.name
        relationship.valueType = valueType
        relationship.isOptional = isOptional
        relationship.keypath = metadata.keypath
        relationship.destination = Schema.entityName(of: destination)
        relationship.destinationType = destination
        relationship.holdsOneModel = holdsOneModel
        return relationship
    }

    /// Pairs each relationship with its inverse: the one `inverse:` names on either side, or
    /// else the only relationship back from the destination, when it is the only one each way.
    private func pairInverses() {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for entity in entities {
            for relationship in entity.relationships {
                guard let inverse = relationship.inverseKeyPath,
                      let destination = byName[relationship.destination],
                      let other = destination.relationships.first(where: { $0.keypath == inverse })
                else { continue }
                relationship.inverseName = other.name
                other.inverseName = relationship.name
            }
        }
        for entity in entities {
            for relationship in entity.relationships where relationship.inverseName == nil {
                guard let destination = byName[relationship.destination] else { continue }
                let candidates = unpairedRelationships(of: destination, to: entity.name).filter { $0 !== relationship }
                guard candidates.count == 1, let candidate = candidates.first else { continue }
                let backward = unpairedRelationships(of: entity, to: destination.name).filter { $0 !== candidate }
                guard backward.count == 1, backward.first === relationship else { continue }
                relationship.inverseName = candidate.name
                candidate.inverseName = relationship.name
            }
        }
    }

    private func unpairedRelationships(of entity: Schema.Entity, to destination: String) -> [Schema.Relationship] {
        entity.storedProperties.compactMap { $0 as? Schema.Relationship }.filter { $0.destination == destination && $0.inverseName == nil }
    }
}

/// Arrays of models: the values of to-many relationships.
protocol ModelArray {
    static var modelType: any PersistentModel.Type { get }
    /// `\.count` of the array type, which predicates count a relationship's models with.
    static var countKeyPath: AnyKeyPath { get }
    /// `\.isEmpty` of the array type.
    static var isEmptyKeyPath: AnyKeyPath { get }
}

extension Array: ModelArray where Element: PersistentModel {
    static var modelType: any PersistentModel.Type { Element.self }
    static var countKeyPath: AnyKeyPath { \[Element].count }
    static var isEmptyKeyPath: AnyKeyPath { \[Element].isEmpty }
}

extension String {
    /// The string, or nil when it is empty.
    var nonEmpty: String? { isEmpty ? nil : self }
}
