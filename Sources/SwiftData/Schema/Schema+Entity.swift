extension Schema {
    /// A model class as the schema describes it: its name and its persisted properties.
    public final class Entity: Hashable, CustomDebugStringConvertible {
        /// The entity's name: the class's name.
        public final var name: String
        /// The entity's stored attributes and relationships, in the order the class declares them.
        public final var storedProperties: [any SchemaProperty]
        /// The properties by name.
        public final var storedPropertiesByName: [String: any SchemaProperty] {
            Dictionary(storedProperties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
        /// The entity's properties.
        public final var properties: [any SchemaProperty] { storedProperties }
        /// The entity's attributes.
        public final var attributes: Set<Schema.Attribute> {
            Set(storedProperties.compactMap { $0 as? Schema.Attribute })
        }
        /// The attributes by name.
        public final var attributesByName: [String: Schema.Attribute] {
            Dictionary(attributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
        /// The entity's relationships.
        public final var relationships: Set<Schema.Relationship> {
            Set(storedProperties.compactMap { $0 as? Schema.Relationship })
        }
        /// The relationships by name.
        public final var relationshipsByName: [String: Schema.Relationship] {
            Dictionary(relationships.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
        /// The entity's parent entity; SwiftData's entities have none here.
        public final var superentity: Schema.Entity?
        /// The name of the parent entity.
        public final var superentityName: String? { superentity?.name }
        /// The entities that inherit from this one.
        public final var subentities: Set<Schema.Entity> = []
        /// Groups of property names whose values together are unique.
        public final var uniquenessConstraints: [[String]] = []
        /// Groups of property names the store indexes.
        public final var indices: [[String]] = []

        /// The model class, when the entity was made from one.
        var modelType: (any PersistentModel.Type)?

        /// Creates an entity without properties.
        public init(_ name: String) {
            self.name = name
            self.storedProperties = []
        }

        /// Creates an entity with properties.
        public init(_ name: String, properties: any SchemaProperty...) {
            self.name = name
            self.storedProperties = properties
        }

        public final var debugDescription: String {
            "Entity(\(name): \(storedProperties.map(\.name)))"
        }

        public final func hash(into hasher: inout Hasher) {
            hasher.combine(name)
        }

        public static func == (lhs: Entity, rhs: Entity) -> Bool {
            lhs === rhs || (lhs.name == rhs.name && lhs.storedProperties.map(\.name) == rhs.storedProperties.map(\.name))
        }
    }
}
