extension Schema {
    /// A relationship of an entity: a property whose values are models.
    public final class Relationship: SchemaProperty, CustomDebugStringConvertible {
        /// What deleting a model does to the models it is related to.
        public enum DeleteRule: String, Hashable, Codable, Sendable {
            /// The related models are left as they are.
            case noAction
            /// The related models stop referring to the deleted one.
            case nullify
            /// The related models are deleted too.
            case cascade
            /// The model cannot be deleted while it is related to any model.
            case deny
        }

        /// A relationship's options.
        public struct Option: Hashable, CustomDebugStringConvertible, Sendable {
            let isUnique: Bool

            /// The related model is unique: no two models refer to the same one.
            public static var unique: Option { Option(isUnique: true) }

            public var debugDescription: String { isUnique ? "unique" : "none" }
        }

        public final var name: String
        public final var originalName: String
        public final var valueType: any Any.Type
        public final var isOptional: Bool
        /// The key path of the relationship.
        public final var keypath: AnyKeyPath?
        /// The name of the destination entity.
        public final var destination: String
        /// The name of the relationship on the other side.
        public final var inverseName: String?
        /// The key path of the relationship on the other side, as `@Relationship(inverse:)` gives it.
        public final var inverseKeyPath: AnyKeyPath?
        public final var deleteRule: DeleteRule
        public final var options: [Option]
        public final var hashModifier: String?
        /// The fewest models a to-many relationship holds.
        public final var minimumModelCount: Int?
        /// The most models a to-many relationship holds; 0 means no limit.
        public final var maximumModelCount: Int?

        /// The model class of the destination.
        var destinationType: (any PersistentModel.Type)?
        /// Whether the relationship holds one model rather than an array.
        var holdsOneModel: Bool = true

        /// Creates the options `@Relationship` gives a property; the model's class supplies the rest.
        public init(
            _ options: Option...,
            deleteRule: DeleteRule = .nullify,
            minimumModelCount: Int? = 0,
            maximumModelCount: Int? = 0,
            originalName: String? = nil,
            inverse: AnyKeyPath? = nil,
            hashModifier: String? = nil
        ) {
            self.name = ""
            self.originalName = originalName ?? ""
            self.valueType = Any.self
            self.isOptional = true
            self.destination = ""
            self.inverseKeyPath = inverse
            self.deleteRule = deleteRule
            self.options = options
            self.hashModifier = hashModifier
            self.minimumModelCount = minimumModelCount
            self.maximumModelCount = maximumModelCount
        }

        /// Whether the relationship holds at most one model.
        public final var isToOneRelationship: Bool { holdsOneModel }
        public final var isAttribute: Bool { false }
        public final var isRelationship: Bool { true }
        public final var isTransient: Bool { false }
        public final var isUnique: Bool { options.contains(.unique) }

        public final var debugDescription: String {
            "Relationship(\(name) -> \(destination)\(isToOneRelationship ? "" : " (to-many)"), inverse: \(inverseName ?? "none"), deleteRule: \(deleteRule))"
        }

        public final func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(destination)
        }

        public static func == (lhs: Relationship, rhs: Relationship) -> Bool {
            lhs === rhs
                || (lhs.name == rhs.name && lhs.destination == rhs.destination && lhs.inverseName == rhs.inverseName
                    && lhs.isToOneRelationship == rhs.isToOneRelationship && lhs.deleteRule == rhs.deleteRule)
        }
    }
}
