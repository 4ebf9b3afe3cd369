import Synchronization

/// A compact, universal identifier for a managed object, safe to pass between threads.
///
/// An object inserted into a context has a temporary ID until it is saved (or until
/// `obtainPermanentIDs(for:)`); it then gets a permanent ID naming its store and primary key.
/// Object IDs are immutable and `Sendable`; the objects they identify are confined to their context.
// An open class cannot be checked `Sendable`; every stored property is immutable, and the entity
// is a frozen model object.
open class NSManagedObjectID: NSObject, NSCopying, @unchecked Sendable {
    /// What distinguishes one object from another within an entity hierarchy and a store.
    enum Key: Hashable {
        /// A saved object: its primary key (`Z_PK`) in its store.
        case permanent(Int64)
        /// An unsaved object: a number unique in this process.
        case temporary(UInt64)
    }

    /// The entity, key and store the ID names (24 bytes).
    let value: ObjectIDValue

    init(value: ObjectIDValue) {
        self.value = value
        super.init()
    }

    /// A permanent ID of a store's row.
    convenience init(entity: NSEntityDescription, primaryKey: Int64, store: NSPersistentStore) {
        self.init(value: ObjectIDValue(entity: entity, primaryKey: primaryKey, store: store))
    }

    /// The entity of the identified object.
    public var entity: NSEntityDescription {
        value.entity
    }

    /// The store object (`NSPersistentStore.storeNumber`); 0 for a temporary ID.
    var storeNumber: UInt32 {
        value.storeNumber
    }

    /// The store's interned UUID (`NSPersistentStore.identityNumber`); 0 for a temporary ID.
    var identityNumber: UInt32 {
        value.identityNumber
    }

    /// A fresh temporary ID for an object inserted into a context.
    static func temporary(for entity: NSEntityDescription) -> NSManagedObjectID {
        let number = temporaryCounter.add(1, ordering: .relaxed).newValue
        return NSManagedObjectID(value: ObjectIDValue(entity: entity, keyNumber: Int64(bitPattern: number), storeNumber: 0, identityNumber: 0))
    }

    /// The key: a permanent ID has a store, a temporary one has none.
    var key: Key {
        value.key
    }

    /// What makes two IDs equal: the entity hierarchy, the store and the key.
    var identity: ObjectIdentity {
        value.identity
    }

    /// The identity, given the layout of the ID's entity, which an object has at hand.
    func identity(inHierarchyOf layout: EntityLayout) -> ObjectIdentity {
        value.identity(inHierarchyOf: layout)
    }

    /// The store that holds the object; nil for a temporary ID, or once the store is deallocated.
    public var persistentStore: NSPersistentStore? {
        value.persistentStore
    }

    /// Whether the ID is temporary: the object has not been saved yet.
    public var isTemporaryID: Bool {
        storeNumber == 0
    }

    /// The primary key of a permanent ID.
    package var primaryKey: Int64? {
        storeNumber == 0 ? nil : value.keyNumber
    }

    /// A URI that identifies the object across launches (for permanent IDs).
    ///
    /// Permanent: `x-coredata://<store UUID>/<Entity>/p<primary key>`.
    /// Temporary: `x-coredata:///<Entity>/t<UUID>` with an empty host.
    public func uriRepresentation() -> URL {
        var components = URLComponents()
        components.scheme = "x-coredata"
        switch key {
        case .permanent(let primaryKey):
            components.host = StoreIdentityRegistry.shared.identifier(numbered: identityNumber) ?? ""
            components.path = "/\(entity.entityName)/p\(primaryKey > 0 ? "\(primaryKey)" : ReferenceObjects.shared.name(of: primaryKey, inStore: identityNumber))"
        case .temporary(let number):
            components.host = ""
            components.path = "/\(entity.entityName)/t\(Self.processTemporaryPrefix)\(number)"
        }
        return components.url ?? URL(fileURLWithPath: "/")
    }

    open func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSManagedObjectID else { return false }
        return other.identity == identity
    }

    open override var hash: Int {
        identity.hashValue
    }

    open override var description: String {
        "<\(uriRepresentation().absoluteString)>"
    }

    private static let temporaryCounter = Atomic<UInt64>(0)

    /// A per-process UUID that prefixes temporary-ID URIs, as Apple's temporary IDs do.
    private static let processTemporaryPrefix = UUID().uuidString
}

extension NSManagedObjectID: ObjectReference {
    var referencedObject: AnyHashable { identity }
}

extension NSManagedObjectID: ObjectIDAttributeValue {}
