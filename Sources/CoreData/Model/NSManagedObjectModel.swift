/// A schema: the entities of an object graph, their configurations and fetch request templates.
///
/// A model is mutable while it is being built. Once a persistent store coordinator uses it, it is
/// frozen: its entities compile into layouts, and any further change traps, as Apple's raises.
// Mutable state is only written while the model is being built, before any coordinator uses it;
// freezing happens under `freezeLock`, and a frozen model is read-only from every thread.
open class NSManagedObjectModel: NSObject, NSCopying, @unchecked Sendable {
    private var ownEntities: [NSEntityDescription] = []

    deinit {
        // Entities outlive their model only when the app holds them; they then belong to no
        // model (see `OwnerReference`).
        for entity in ownEntities where entity.modelReference.refers(to: self) { entity.managedObjectModel = nil }
        if frozen { FrozenModels.shared.remove(ObjectIdentifier(self)) }
    }
    private var configurationEntities: [String: [NSEntityDescription]] = [:]
    private var templates: [String: NSFetchRequest<NSFetchRequestResult>] = [:]
    private let freezeLock = NSLock()
    private var frozen = false
    /// `entitiesByName`, computed once when the model is frozen.
    private var frozenEntitiesByName: [String: NSEntityDescription]?

    /// Hints that identify the model version; they play no part in compatibility checks.
    public var versionIdentifiers: Set<AnyHashable> = [] {
        willSet { assertEditable() }
    }

    /// The `.xcdatamodel` directory the model was read from, whose sibling versions automatic
    /// migration searches for a store's source model.
    var versionDirectoryURL: URL?

    /// Localized names of entities and properties. Stored for compatibility.
    public var localizationDictionary: [String: String]? {
        willSet { assertEditable() }
    }

    /// Creates an empty model.
    public override init() {
        super.init()
    }

    /// Creates a model that holds the entities of every given model.
    ///
    /// Returns nil when two models declare an entity with the same name.
    public convenience init?(byMerging models: [NSManagedObjectModel]?) {
        self.init()
        var seen = Set<String>()
        var merged: [NSEntityDescription] = []
        for model in models ?? [] {
            for entity in model.copiedEntities() {
                guard seen.insert(entity.entityName).inserted else { return nil }
                merged.append(entity)
            }
            for (name, template) in model.templates { templates[name] = template }
        }
        entities = merged
    }

    // MARK: Entities

    /// The entities of the model. Setting it makes the model their owner.
    public var entities: [NSEntityDescription] {
        get { ownEntities }
        set {
            assertEditable()
            ownEntities.forEach { $0.managedObjectModel = nil }
            ownEntities = newValue
            ownEntities.forEach { $0.managedObjectModel = self }
        }
    }

    /// The entities by name.
    public var entitiesByName: [String: NSEntityDescription] {
        frozenEntitiesByName ?? Dictionary(ownEntities.map { ($0.entityName, $0) }, uniquingKeysWith: { first, _ in first })
    }

    // MARK: Configurations

    /// The names of the model's configurations, without the implicit default one.
    public var configurations: [String] {
        configurationEntities.keys.sorted()
    }

    /// The entities of a named configuration; nil names the default configuration, which holds
    /// every entity.
    public func entities(forConfigurationName configuration: String?) -> [NSEntityDescription]? {
        guard let configuration, configuration != Self.defaultConfigurationName else { return ownEntities }
        return configurationEntities[configuration]
    }

    /// Sets the entities of a named configuration.
    public func setEntities(_ entities: [NSEntityDescription], forConfigurationName configuration: String) {
        assertEditable()
        configurationEntities[configuration] = entities
    }

    /// The name Apple's Core Data uses for the default configuration.
    static let defaultConfigurationName = "PF_DEFAULT_CONFIGURATION_NAME"

    // MARK: Fetch request templates

    /// The model's stored fetch requests, by name.
    public var fetchRequestTemplatesByName: [String: NSFetchRequest<NSFetchRequestResult>] {
        templates
    }

    /// The stored fetch request with a name.
    public func fetchRequestTemplate(forName name: String) -> NSFetchRequest<NSFetchRequestResult>? {
        templates[name]
    }

    /// Stores a fetch request under a name, or removes it when the request is nil.
    public func setFetchRequestTemplate(_ fetchRequestTemplate: NSFetchRequest<NSFetchRequestResult>?, forName name: String) {
        assertEditable()
        templates[name] = fetchRequestTemplate
    }

    /// A copy of a stored fetch request whose predicate has its `$variables` replaced.
    public func fetchRequestFromTemplate(withName name: String, substitutionVariables variables: [String: Any]) -> NSFetchRequest<NSFetchRequestResult>? {
        guard let template = templates[name],
              let request = template.copy() as? NSFetchRequest<NSFetchRequestResult> else { return nil }
        request.predicate = template.predicate?.withSubstitutionVariables(variables)
        return request
    }

    // MARK: Versioning

    /// The version hash of every entity, by entity name.
    public var entityVersionHashesByName: [String: Data] {
        Dictionary(ownEntities.map { ($0.entityName, $0.versionHash) }, uniquingKeysWith: { first, _ in first })
    }

    /// A checksum of the model's entity hashes, as Apple writes it into store metadata.
    public var versionChecksum: String {
        VersionHash.modelChecksum(entityVersionHashesByName)
    }

    /// Whether a configuration of the model matches the entity hashes recorded in store metadata.
    ///
    /// The store is compatible when its `NSStoreModelVersionHashes` holds exactly the hashes of the
    /// configuration's entities.
    public func isConfiguration(withName configuration: String?, compatibleWithStoreMetadata metadata: [String: Any]) -> Bool {
        guard let stored = metadata[NSStoreModelVersionHashesKey] as? [String: Any],
              let entities = entities(forConfigurationName: configuration) else { return false }
        let expected = Dictionary(entities.map { ($0.entityName, $0.versionHash) }, uniquingKeysWith: { first, _ in first })
        guard stored.count == expected.count else { return false }
        return expected.allSatisfy { name, hash in Self.hash(stored[name]) == hash }
    }

    /// A version hash as metadata holds it (`Data`, or `NSData` from a property list).
    static func hash(_ value: Any?) -> Data? {
        (value as? Data) ?? (value as? NSData).map { Data(referencing: $0) }
    }

    // MARK: Copying

    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSManagedObjectModel()
        let entities = copiedEntities()
        copy.entities = entities
        let byName = Dictionary(entities.map { ($0.entityName, $0) }, uniquingKeysWith: { first, _ in first })
        copy.configurationEntities = configurationEntities.mapValues { $0.compactMap { byName[$0.entityName] } }
        copy.templates = templates
        copy.versionIdentifiers = versionIdentifiers
        copy.localizationDictionary = localizationDictionary
        return copy
    }

    /// Copies of the entities with inheritance, destinations and inverses rewired among the copies.
    private func copiedEntities() -> [NSEntityDescription] {
        let copies = ownEntities.compactMap { $0.copy() as? NSEntityDescription }
        let byName = Dictionary(copies.map { ($0.entityName, $0) }, uniquingKeysWith: { first, _ in first })
        for (original, copy) in zip(ownEntities, copies) {
            copy.subentities = original.subentities.compactMap { byName[$0.entityName] }
        }
        for copy in copies {
            for case let relationship as NSRelationshipDescription in copy.declaredProperties {
                guard let destination = relationship.destinationEntity.flatMap({ byName[$0.entityName] }) else { continue }
                relationship.destinationEntity = destination
                if let inverseName = relationship.inverseRelationship?.name {
                    relationship.inverseRelationship = destination.relationshipsByName[inverseName]
                }
            }
        }
        return copies
    }

    open override var description: String {
        "(<NSManagedObjectModel>) isEditable \(!isFrozen), entities \(ownEntities.map(\.entityName))"
    }

    // MARK: Freezing

    /// Whether a coordinator uses the model, which makes it immutable.
    var isFrozen: Bool {
        freezeLock.withLock { frozen }
    }

    /// Makes the model immutable and compiles the layout of every entity. Idempotent and thread-safe.
    package func freeze() {
        freezeLock.withLock {
            guard !frozen else { return }
            for entity in ownEntities {
                entity.installLayout(EntityLayout(entity: entity))
            }
            frozenEntitiesByName = entitiesByName
            frozen = true
            FrozenModels.shared.add(self)
        }
    }

    func assertEditable() {
        precondition(!isFrozen, "Can't modify an immutable model: a persistent store coordinator already uses it.")
    }
}
