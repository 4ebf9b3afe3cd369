/// The entities of a set of model classes, and the version of the whole.
///
/// A schema made from model classes also takes in the classes they are related to.
public final class Schema: Hashable, CustomDebugStringConvertible {
    /// The schema's entities, one per model class.
    public final let entities: [Schema.Entity]
    /// The entities by name.
    public final let entitiesByName: [String: Schema.Entity]
    /// The schema's version.
    public final let version: Schema.Version

    /// Creates an empty schema.
    public convenience init() {
        self.init([Schema.Entity](), version: Version(1, 0, 0))
    }

    /// Creates a schema of entities described without classes.
    public convenience init(_ entities: Schema.Entity..., version: Schema.Version = Version(1, 0, 0)) {
        self.init(entities, version: version)
    }

    /// Creates the schema of model classes and the classes they are related to.
    ///
    /// - Parameters:
    ///   - types: The model classes.
    ///   - version: The schema's version.
    public convenience init(_ types: [any PersistentModel.Type], version: Schema.Version = Version(1, 0, 0)) {
        self.init(SchemaBuilder(types).entities, version: version)
    }

    /// Creates the schema of a versioned schema's models, with its version.
    public convenience init(versionedSchema: any VersionedSchema.Type) {
        self.init(versionedSchema.models, version: versionedSchema.versionIdentifier)
    }

    private init(_ entities: [Schema.Entity], version: Schema.Version) {
        self.entities = entities
        self.entitiesByName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.version = version
    }

    /// The entity of a model class.
    public final func entity<T: PersistentModel>(for type: T.Type) -> Schema.Entity? {
        entitiesByName[Schema.entityName(for: type)]
    }

    /// The name of a model class's entity: the class's name, without its module or enclosing types.
    public static func entityName<T: PersistentModel>(for type: T.Type) -> String {
        entityName(of: type)
    }

    static func entityName(of type: any PersistentModel.Type) -> String {
        String(describing: type)
    }

    /// The model classes of the schema's entities.
    var modelTypes: [any PersistentModel.Type] {
        entities.compactMap(\.modelType)
    }

    public final var debugDescription: String {
        "Schema(version: \(version), entities: \(entities.map(\.name)))"
    }

    public final func hash(into hasher: inout Hasher) {
        hasher.combine(version)
        hasher.combine(entities.map(\.name))
    }

    public static func == (lhs: Schema, rhs: Schema) -> Bool {
        lhs === rhs || (lhs.version == rhs.version && lhs.entities == rhs.entities)
    }
}

extension Schema {
    /// A schema's version: major, minor and patch numbers.
    public struct Version: Comparable, Hashable, Codable, CustomStringConvertible, Sendable {
        public let major: Int
        public let minor: Int
        public let patch: Int

        /// Creates a version from its numbers.
        public init(_ major: Int, _ minor: Int, _ patch: Int) {
            self.major = major
            self.minor = minor
            self.patch = patch
        }

        /// The version as Core Data's model version identifier, `major.minor.patch`.
        public var description: String { "\(major).\(minor).\(patch)" }

        public static func < (lhs: Version, rhs: Version) -> Bool {
            (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }
    }

    /// A persisted property as `@Model` describes it: its name, key path, initial value and options.
    public struct PropertyMetadata {
        let name: String
        let keypath: AnyKeyPath
        let defaultValue: Any?
        let metadata: (any SchemaProperty)?

        /// Creates a property's metadata.
        public init(name: String, keypath: AnyKeyPath, defaultValue: Any? = nil, metadata: (any SchemaProperty)? = nil) {
            self.name = name
            self.keypath = keypath
            self.defaultValue = defaultValue
            self.metadata = metadata
        }
    }

    /// A uniqueness constraint or index a class declares with `#Unique` or `#Index`.
    ///
    /// This is extra API, for the code `@Model` writes.
    public struct _ModelConstraint {
        enum Kind {
            case unique
            case index
        }

        let kind: Kind
        let keyPaths: [[AnyKeyPath]]

        /// A `#Unique` declaration.
        public static func unique<T: PersistentModel>(_ type: T.Type, _ constraints: [PartialKeyPath<T>]...) -> _ModelConstraint {
            _ModelConstraint(kind: .unique, keyPaths: constraints)
        }

        /// An `#Index` declaration.
        public static func index<T: PersistentModel>(_ type: T.Type, _ indices: [PartialKeyPath<T>]...) -> _ModelConstraint {
            _ModelConstraint(kind: .index, keyPaths: indices)
        }
    }
}
