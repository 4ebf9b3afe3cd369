/// The description of a property of an entity: an attribute, a relationship or a fetched property.
///
/// Descriptions are mutable while the model is being built and immutable once a persistent store
/// coordinator uses the model; Apple raises on later mutation, and so do we.
// Mutable state is only written while the model is being built; afterwards the model is frozen and
// read from any thread, which is what Apple documents for models in use.
open class NSPropertyDescription: NSObject, NSCopying, @unchecked Sendable {
    /// The name of the property.
    public var name: String = "" {
        willSet { assertEditable() }
    }

    /// Whether the property may be nil (or, for to-many relationships, empty) when the object is saved.
    ///
    /// The default is `true`, as on Apple platforms.
    public var isOptional: Bool = true {
        willSet { assertEditable() }
    }

    /// Whether the property is kept in memory only and never written to a store.
    public var isTransient: Bool = false {
        willSet { assertEditable() }
    }

    /// A dictionary of application data attached to the property.
    public var userInfo: [AnyHashable: Any]? = [:] {
        willSet { assertEditable() }
    }

    /// A string that changes the version hash, to force a model version change Core Data would not see.
    public var versionHashModifier: String? {
        willSet { assertEditable() }
    }

    /// The name this property had in an earlier model version, used by migration.
    public var renamingIdentifier: String? {
        willSet { assertEditable() }
    }

    /// Whether the property is indexed in the store (deprecated by Apple in favour of fetch indexes).
    public var isIndexed: Bool = false {
        willSet { assertEditable() }
    }

    /// Whether Spotlight indexes the property. Stored for compatibility; it has no effect on Linux.
    public var isIndexedBySpotlight: Bool = false {
        willSet { assertEditable() }
    }

    /// Whether the property is stored in an external record (deprecated). Stored for compatibility.
    public var isStoredInExternalRecord: Bool = false {
        willSet { assertEditable() }
    }

    /// The predicates a value must satisfy at validation time.
    public private(set) var validationPredicates: [NSPredicate] = []

    /// The warning (an error code number or a message string) reported for each validation predicate.
    public private(set) var validationWarnings: [Any] = []

    /// The entity that declares the property (see `OwnerReference`).
    var ownerReference = OwnerReference<NSEntityDescription>()

    var owner: NSEntityDescription? {
        get { ownerReference.owner }
        set { ownerReference = OwnerReference(newValue) }
    }

    /// The entity that declares this property.
    public var entity: NSEntityDescription {
        guard let owner else {
            preconditionFailure("The property '\(name)' has not been added to an entity.")
        }
        return owner
    }

    /// Sets the validation predicates and their warnings, which must be arrays of equal length.
    public func setValidationPredicates(_ validationPredicates: [NSPredicate]?, withValidationWarnings validationWarnings: [String]?) {
        assertEditable()
        let predicates = validationPredicates ?? []
        let warnings = validationWarnings ?? []
        precondition(
            predicates.count == warnings.count,
            "The property '\(name)' needs one validation warning per validation predicate."
        )
        self.validationPredicates = predicates
        self.validationWarnings = warnings
    }

    /// The hash that identifies this property's persistent shape in a model version.
    public var versionHash: Data {
        Data(VersionHash.property(self))
    }

    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = type(of: self).init()
        copy.copyProperties(from: self)
        return copy
    }

    /// Creates an empty description. It is required so that `copy()` keeps the receiver's class.
    public required override init() {
        super.init()
    }

    /// Copies every field of `other` into the receiver; subclasses add their own fields.
    func copyProperties(from other: NSPropertyDescription) {
        name = other.name
        isOptional = other.isOptional
        isTransient = other.isTransient
        userInfo = other.userInfo
        versionHashModifier = other.versionHashModifier
        renamingIdentifier = other.renamingIdentifier
        isIndexed = other.isIndexed
        isIndexedBySpotlight = other.isIndexedBySpotlight
        isStoredInExternalRecord = other.isStoredInExternalRecord
        validationPredicates = other.validationPredicates
        validationWarnings = other.validationWarnings
    }

    /// Traps when the model this property belongs to is already in use, as Apple does.
    func assertEditable() {
        owner?.assertEditable()
    }

    open override var description: String {
        "(\(type(of: self))) name \(name), isOptional \(isOptional), isTransient \(isTransient)"
    }
}
