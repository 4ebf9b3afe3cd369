/// The description of an entity: its name, class, properties and place in an inheritance hierarchy.
///
/// An entity is to a managed object what a class is to an instance. Entities are mutable while the
/// model is being built and immutable once a persistent store coordinator uses the model.
// Mutable state is only written while the model is being built; afterwards the model is frozen and
// read from any thread, which is what Apple documents for models in use.
open class NSEntityDescription: NSObject, NSCopying, @unchecked Sendable {
    /// The name of the entity.
    public var name: String? {
        willSet { assertEditable() }
    }

    /// The name of the class that represents the entity's objects; `NSManagedObject` by default.
    ///
    /// A module-qualified name (`MyApp.Movie`) is resolved through `NSClassFromString`; an
    /// unqualified name is looked up among the classes Core Data has seen and in the main module.
    public var managedObjectClassName: String! = "NSManagedObject" {
        willSet { assertEditable() }
    }

    /// Whether the entity is abstract: it cannot be instantiated, only its sub-entities can.
    public var isAbstract: Bool = false {
        willSet { assertEditable() }
    }

    /// A dictionary of application data attached to the entity.
    public var userInfo: [AnyHashable: Any]? = [:] {
        willSet { assertEditable() }
    }

    /// A string that changes the version hash, to force a model version change Core Data would not see.
    public var versionHashModifier: String? {
        willSet { assertEditable() }
    }

    /// The name this entity had in an earlier model version, used by migration.
    public var renamingIdentifier: String? {
        willSet { assertEditable() }
    }

    /// Sets of property names (or properties) whose values must be unique together.
    public var uniquenessConstraints: [[Any]] = [] {
        willSet { assertEditable() }
    }

    /// The fetch indexes the store builds for the entity.
    public var indexes: [NSFetchIndexDescription] = [] {
        willSet { assertEditable() }
        didSet {
            oldValue.forEach { if $0.entityReference.refers(to: self) { $0.entity = nil } }
            indexes.forEach { $0.entity = self }
        }
    }

    /// The expression Spotlight uses as the display name. Stored for compatibility.
    public var coreSpotlightDisplayNameExpression: NSExpression = NSExpression(forKeyPath: "") {
        willSet { assertEditable() }
    }

    /// The entity this one inherits from (see `OwnerReference`).
    private var superentityReference = OwnerReference<NSEntityDescription>()

    /// The entity this one inherits from.
    public internal(set) var superentity: NSEntityDescription? {
        get { superentityReference.owner }
        set { superentityReference = OwnerReference(newValue) }
    }

    /// How Xcode generates the entity's class, from a model file's `codeGenerationType`; nil for
    /// manual code generation. Apple's compiled models drop it; model files keep it.
    package var codeGenerationType: CodeGenerationType?

    /// The model the entity belongs to (see `OwnerReference`).
    var modelReference = OwnerReference<NSManagedObjectModel>()

    /// The model the entity belongs to.
    public internal(set) var managedObjectModel: NSManagedObjectModel! {
        get { modelReference.owner }
        set { modelReference = OwnerReference(newValue) }
    }

    private var ownProperties: [NSPropertyDescription] = []
    private var ownSubentities: [NSEntityDescription] = []
    private var compiledLayout: EntityLayout?

    deinit {
        // The descriptions this entity owns outlive it only when the app holds them; they then
        // belong to no entity (see `OwnerReference`).
        for property in ownProperties where property.ownerReference.refers(to: self) { property.owner = nil }
        for index in indexes where index.entityReference.refers(to: self) { index.entity = nil }
        for subentity in ownSubentities where subentity.superentityReference.refers(to: self) { subentity.superentity = nil }
    }

    public override init() {
        super.init()
    }

    // MARK: Properties

    /// The entity's properties, inherited ones first. Setting it replaces the entity's own properties.
    public var properties: [NSPropertyDescription] {
        get { (superentity?.properties ?? []) + ownProperties }
        set {
            assertEditable()
            ownProperties.forEach { $0.owner = nil }
            let inherited = Set((superentity?.properties ?? []).map(ObjectIdentifier.init))
            ownProperties = newValue.filter { !inherited.contains(ObjectIdentifier($0)) }
            ownProperties.forEach { $0.owner = self }
        }
    }

    /// The properties the entity declares itself, without inherited ones.
    package var declaredProperties: [NSPropertyDescription] { ownProperties }

    /// The properties by name, inherited ones included.
    public var propertiesByName: [String: NSPropertyDescription] {
        Dictionary(properties.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// The attributes by name, inherited ones included.
    public var attributesByName: [String: NSAttributeDescription] {
        Dictionary(properties.compactMap { $0 as? NSAttributeDescription }.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// The relationships by name, inherited ones included.
    public var relationshipsByName: [String: NSRelationshipDescription] {
        Dictionary(properties.compactMap { $0 as? NSRelationshipDescription }.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// The relationships whose destination is `entity`.
    public func relationships(forDestination entity: NSEntityDescription) -> [NSRelationshipDescription] {
        properties.compactMap { $0 as? NSRelationshipDescription }.filter { $0.destinationEntity === entity }
    }

    // MARK: Inheritance

    /// The entities that inherit from this one. Setting it makes this entity their superentity.
    public var subentities: [NSEntityDescription] {
        get { ownSubentities }
        set {
            assertEditable()
            for child in newValue where child === self || isDescendant(of: child) {
                preconditionFailure("Making '\(child.entityName)' a sub-entity of '\(entityName)' would create an inheritance cycle.")
            }
            ownSubentities.forEach { $0.superentity = nil }
            ownSubentities = newValue
            ownSubentities.forEach { $0.superentity = self }
        }
    }

    /// The sub-entities by name.
    public var subentitiesByName: [String: NSEntityDescription] {
        Dictionary(ownSubentities.map { ($0.entityName, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// Whether `ancestor` is above this entity in its hierarchy.
    private func isDescendant(of ancestor: NSEntityDescription) -> Bool {
        var current = superentity
        while let entity = current {
            if entity === ancestor { return true }
            current = entity.superentity
        }
        return false
    }

    /// Whether this entity is `entity` or inherits from it.
    public func isKindOf(entity: NSEntityDescription) -> Bool {
        var current: NSEntityDescription? = self
        while let candidate = current {
            if candidate === entity || (candidate.name != nil && candidate.name == entity.name && candidate.managedObjectModel === entity.managedObjectModel) {
                return true
            }
            current = candidate.superentity
        }
        return false
    }

    // MARK: Version hash

    /// The hash that identifies the entity's persistent shape in a model version.
    ///
    /// Computed as Apple's Core Data does (see the store format specification), so stores written
    /// by Apple's Core Data and by this implementation recognise each other's models.
    public var versionHash: Data {
        Data(VersionHash.entity(self))
    }

    // MARK: Copying

    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSEntityDescription()
        copy.name = name
        copy.managedObjectClassName = managedObjectClassName
        copy.isAbstract = isAbstract
        copy.userInfo = userInfo
        copy.versionHashModifier = versionHashModifier
        copy.renamingIdentifier = renamingIdentifier
        copy.uniquenessConstraints = uniquenessConstraints
        copy.coreSpotlightDisplayNameExpression = coreSpotlightDisplayNameExpression
        copy.codeGenerationType = codeGenerationType
        copy.ownProperties = ownProperties.compactMap { $0.copy() as? NSPropertyDescription }
        copy.ownProperties.forEach { $0.owner = copy }
        copy.indexes = indexes.compactMap { $0.copy() as? NSFetchIndexDescription }
        return copy
    }

    open override var description: String {
        "(<NSEntityDescription>) name \(entityName), managedObjectClassName \(managedObjectClassName ?? "nil"), superentity \(superentity?.entityName ?? "nil"), properties \(properties.map(\.name))"
    }

    // MARK: Internal

    /// The name, or an empty string for an entity that has none yet.
    package var entityName: String { name ?? "" }

    /// The class of the entity's objects when a layer above Core Data chooses it (SwiftData's
    /// models are not managed object subclasses), rather than `managedObjectClassName`.
    /// (A class, not a managed object class, so that the model layer names no object type.)
    package var instanceClass: AnyClass?

    /// What a layer above Core Data keeps with the entity (SwiftData: how its model's
    /// properties map to the entity's slots), set while the model is built.
    package var runtimeCompanion: AnyObject?

    /// The root of the entity's inheritance hierarchy.
    package var rootEntity: NSEntityDescription {
        var entity = self
        while let parent = entity.superentity { entity = parent }
        return entity
    }

    /// The entity and all its sub-entities, recursively, parents before children.
    var selfAndDescendants: [NSEntityDescription] {
        [self] + ownSubentities.flatMap(\.selfAndDescendants)
    }

    /// The compiled layout of the entity's objects; the model compiles it when it is frozen.
    package var layout: EntityLayout {
        if let compiledLayout { return compiledLayout }
        managedObjectModel?.freeze()
        if let compiledLayout { return compiledLayout }
        let layout = EntityLayout(entity: self)
        compiledLayout = layout
        return layout
    }

    func installLayout(_ layout: EntityLayout) {
        compiledLayout = layout
    }

    func assertEditable() {
        managedObjectModel?.assertEditable()
    }
}
