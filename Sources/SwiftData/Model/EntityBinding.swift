internal import CoreData

/// How a model class's persisted properties map onto its entity's slots, compiled once per
/// entity so that property access costs an array index.
// Immutable once built (the model is frozen first), so it is read from any thread.
final class EntityBinding: @unchecked Sendable {
    /// One persisted property: where its value lives and how it converts.
    struct Property {
        let name: String
        let slot: Int
        let access: PropertyAccess
        /// The scalar an attribute holds, when its accessors read and write it unboxed.
        let scalar: Scalar?

        var isRelationship: Bool {
            if case .attribute = access { return false }
            return true
        }
    }

    /// Attribute values read and written without boxing.
    enum Scalar {
        case integer
        case double
        case bool
    }

    /// Where a property's unboxed value lives: plain values, so that an accessor reads them
    /// without retaining anything.
    struct ScalarSlot {
        let kind: Scalar?
        let slot: Int
    }

    /// How a property's value is read and written.
    enum PropertyAccess {
        case attribute(any AttributeCodec, isOptional: Bool)
        case toOne
        case toMany(any PersistentModel.Type)
    }

    let modelType: any PersistentModel.Type
    /// The properties, in the order of the class's schema metadata.
    let properties: [Property]
    /// The position of each property's key path in the schema metadata.
    let ordinalsByKeyPath: [AnyKeyPath: Int]
    /// The relationships among the properties.
    let relationships: [Property]
    /// The scalar kind and slot of each property, in the order of the schema metadata.
    let scalars: [ScalarSlot]
    /// Makes the model of an object of the entity (see `AnyModelObject.modelMaker`).
    let makeModel: (AnyModelObject) -> AnyObject

    init(modelType: any PersistentModel.Type, entity: NSEntityDescription, schemaEntity: Schema.Entity) {
        self.modelType = modelType
        let slots = Dictionary(uniqueKeysWithValues: entity.layout.slots.map { ($0.name, $0.index) })
        var properties: [Property] = []
        var ordinals: [AnyKeyPath: Int] = [:]
        for (ordinal, metadata) in modelType.schemaMetadata.enumerated() {
            ordinals[metadata.keypath] = ordinal
            let access: PropertyAccess
            switch schemaEntity.storedPropertiesByName[metadata.name] {
            case let attribute as Schema.Attribute:
                access = .attribute(attribute.codec ?? TransformedValueCodec(), isOptional: attribute.isOptional)
            case let relationship as Schema.Relationship:
                access = relationship.isToOneRelationship ? .toOne : .toMany(relationship.destinationType!)
            default:
                access = .attribute(TransformedValueCodec(), isOptional: true)
            }
            properties.append(Property(name: metadata.name, slot: slots[metadata.name] ?? -1, access: access, scalar: Self.scalar(of: access)))
        }
        self.properties = properties
        self.ordinalsByKeyPath = ordinals
        self.scalars = properties.map { ScalarSlot(kind: $0.scalar, slot: $0.slot) }
        self.relationships = properties.filter(\.isRelationship)
        self.makeModel = modelType.modelMaker
    }

    private static func scalar(of access: PropertyAccess) -> Scalar? {
        guard case .attribute(let codec, _) = access, codec is any StoredScalarCodec else { return nil }
        switch codec.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: return .integer
        case .doubleAttributeType: return .double
        case .booleanAttributeType: return .bool
        default: return nil
        }
    }

    /// The binding of an entity, if SwiftData built it, that binds a model class: nil for an
    /// entity of another version's class of the same name.
    static func of(_ entity: NSEntityDescription, bindingClass type: any PersistentModel.Type) -> EntityBinding? {
        guard let binding = entity.runtimeCompanion as? EntityBinding, ObjectIdentifier(binding.modelType) == ObjectIdentifier(type) else { return nil }
        return binding
    }

    /// The binding the model layer attached to an entity.
    static func of(_ entity: NSEntityDescription) -> EntityBinding {
        unsafeDowncast(entity.runtimeCompanion.unsafelyUnwrapped, to: EntityBinding.self)
    }
}
