public import CoreData

extension Schema {
    /// An attribute of an entity: a property whose values are not models.
    public class Attribute: SchemaProperty, CustomDebugStringConvertible {
        public var name: String
        public var originalName: String
        /// How the attribute's values are stored.
        public var options: [Schema.Attribute.Option]
        public var valueType: any Any.Type
        /// The value a model starts with.
        public var defaultValue: Any?
        /// A string that changes the attribute's version hash without changing its shape.
        public var hashModifier: String?
        public var isOptional: Bool

        /// How the values convert to what Core Data holds; nil for a type SwiftData cannot store.
        var codec: (any AttributeCodec)?

        /// Creates the options `@Attribute` gives a property; the model's class supplies the rest.
        public init(_ options: Schema.Attribute.Option..., originalName: String? = nil, hashModifier: String? = nil) {
            self.name = ""
            self.originalName = originalName ?? ""
            self.options = options
            self.valueType = Any.self
            self.hashModifier = hashModifier
            self.isOptional = false
        }

        /// Creates an attribute.
        public init(
            name: String,
            originalName: String? = nil,
            options: [Schema.Attribute.Option] = [],
            valueType: any Any.Type,
            defaultValue: Any? = nil,
            hashModifier: String? = nil
        ) {
            self.name = name
            self.originalName = originalName ?? name
            self.options = options
            self.hashModifier = hashModifier
            self.defaultValue = defaultValue
            let unwrapped = unwrappedOptional(valueType)
            self.valueType = valueType
            self.isOptional = unwrapped != nil
            self.codec = Self.codec(for: unwrapped ?? valueType, options: options)
        }

        public var isAttribute: Bool { true }
        public var isRelationship: Bool { false }
        public var isTransient: Bool { options.contains(.ephemeral) }
        public var isUnique: Bool { options.contains(.unique) }
        /// Whether a value transformer stores the values.
        public var isTransformable: Bool { options.contains { $0.transformerName != nil } }

        public var debugDescription: String {
            "Attribute(\(name): \(valueType)\(isOptional ? "?" : ""), options: \(options))"
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
        }

        public static func == (lhs: Attribute, rhs: Attribute) -> Bool {
            lhs === rhs || (lhs.name == rhs.name && lhs.valueType == rhs.valueType && lhs.isOptional == rhs.isOptional && lhs.options == rhs.options)
        }

        private static func codec(for type: any Any.Type, options: [Option]) -> (any AttributeCodec)? {
            if options.contains(where: { $0.transformerName != nil }) { return TransformedValueCodec() }
            return AttributeCodecs.codec(for: type)
        }
    }
}

extension Schema.Attribute {
    /// How an attribute's values are stored.
    public struct Option: Hashable, CustomDebugStringConvertible, Sendable {
        enum Kind: Hashable, Sendable {
            case unique
            case externalStorage
            case preserveValueOnDeletion
            case spotlight
            case allowsCloudEncryption
            case ephemeral
            case transformable(String)
        }

        let kind: Kind

        /// The values are unique among the models of the entity; saving a model with a value
        /// already stored updates the stored model instead (an upsert).
        public static var unique: Option { Option(kind: .unique) }
        /// Large values are stored in files beside the store.
        public static var externalStorage: Option { Option(kind: .externalStorage) }
        /// Persistent history keeps the value when the model is deleted.
        public static var preserveValueOnDeletion: Option { Option(kind: .preserveValueOnDeletion) }
        /// Spotlight indexes the value; accepted, and meaningless on Linux.
        public static var spotlight: Option { Option(kind: .spotlight) }
        /// CloudKit encrypts the value; accepted, and meaningless on Linux.
        public static var allowsCloudEncryption: Option { Option(kind: .allowsCloudEncryption) }
        /// Changes are tracked but the value is not persisted.
        public static var ephemeral: Option { Option(kind: .ephemeral) }

        /// A value transformer stores the values.
        public static func transformable(by transformerType: ValueTransformer.Type) -> Option {
            Option(kind: .transformable(String(describing: transformerType)))
        }

        /// The value transformer registered under a name stores the values.
        public static func transformable(by transformerName: String) -> Option {
            Option(kind: .transformable(transformerName))
        }

        var transformerName: String? {
            if case .transformable(let name) = kind { return name }
            return nil
        }

        public var debugDescription: String { "\(kind)" }
    }
}

/// Optional types, unwrapped when the schema reads a property's type.
protocol OptionalType {
    static var wrappedType: Any.Type { get }
}

extension Optional: OptionalType {
    static var wrappedType: Any.Type { Wrapped.self }
}

/// The type an optional type wraps, or nil when the type is not optional.
func unwrappedOptional(_ type: Any.Type) -> Any.Type? {
    (type as? any OptionalType.Type)?.wrappedType
}

