import Synchronization

/// A compact, universal identifier for a managed object, safe to pass between threads.
///
/// An object inserted into a context has a temporary ID until it is saved (or until
/// `obtainPermanentIDs(for:)`); it then gets a permanent ID naming its store and primary key.
/// Object IDs are immutable and `Sendable`; the objects they identify are confined to their context.
// Every stored property is immutable; the entity and store are only read, and they are frozen
// (model) or internally synchronized (store) objects.
open class NSManagedObjectID: NSObject, NSCopying, @unchecked Sendable {
    /// What distinguishes one object from another within an entity hierarchy and a store.
    enum Key: Hashable {
        /// A saved object: its primary key (`Z_PK`) in its store.
        case permanent(Int64)
        /// An unsaved object: a number unique in this process.
        case temporary(UInt64)
    }

    /// The entity of the identified object.
    public let entity: NSEntityDescription

    let key: Key
    let storeIdentifier: String?
    private weak var store: NSPersistentStore?
    /// What makes two IDs equal: the entity hierarchy, the store and the key.
    let identity: ObjectIdentity

    init(entity: NSEntityDescription, key: Key, store: NSPersistentStore?) {
        self.entity = entity
        self.key = key
        self.store = store
        self.storeIdentifier = store?.identifier
        self.identity = ObjectIdentity(root: entity.layout.rootIdentifier, store: store?.identityNumber ?? 0, key: key)
        super.init()
    }

    /// A fresh temporary ID for an object inserted into a context.
    static func temporary(for entity: NSEntityDescription) -> NSManagedObjectID {
        let number = temporaryCounter.add(1, ordering: .relaxed).newValue
        return NSManagedObjectID(entity: entity, key: .temporary(number), store: nil)
    }

    /// The store that holds the object; nil for a temporary ID.
    public var persistentStore: NSPersistentStore? {
        store
    }

    /// Whether the ID is temporary: the object has not been saved yet.
    public var isTemporaryID: Bool {
        if case .temporary = key { return true }
        return false
    }

    /// The primary key of a permanent ID.
    var primaryKey: Int64? {
        if case .permanent(let primaryKey) = key { return primaryKey }
        return nil
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
            components.host = storeIdentifier ?? ""
            components.path = "/\(entity.entityName)/p\(primaryKey)"
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

/// The value that decides object-ID equality, cheap to hash: the root entity of the hierarchy (all
/// entities of a hierarchy share primary keys), the store (by its interned UUID, so that IDs from
/// two coordinators on one store file agree) and the key. Contexts register objects under it.
struct ObjectIdentity: Hashable {
    let root: ObjectIdentifier
    let store: Int
    let key: NSManagedObjectID.Key

    /// One combined word: hashing runs for every registered, fetched and saved object.
    func hash(into hasher: inout Hasher) {
        let number: Int
        switch key {
        case .permanent(let primaryKey): number = Int(truncatingIfNeeded: primaryKey)
        case .temporary(let counter): number = ~Int(truncatingIfNeeded: counter)
        }
        let rootBits = Int(bitPattern: UInt(bitPattern: root))
        hasher.combine(number &+ store &* 0x9E37_79B9 &+ rootBits &* 31)
    }
}

extension NSManagedObjectID: ObjectReference {
    var referencedObject: AnyHashable { identity }
}
