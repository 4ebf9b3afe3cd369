/// An abstract store that keeps its whole object graph in memory and reads and writes its file
/// in one piece; a program subclasses it for a file format of its own, as Core Data's binary and
/// XML stores do.
///
/// Register the subclass for a store type with
/// `NSPersistentStoreCoordinator.registerStoreClass(_:type:)` and add stores of that type as any
/// other. When the store is added, the coordinator calls ``load()``, which reads the file and
/// registers one cache node per object with ``addCacheNodes(_:)``, making the nodes' IDs with
/// ``objectID(for:withReferenceObject:)``. Fetches, faults and relationships then read the nodes.
// Used only under its coordinator's lock, like every store.
open class NSAtomicStore: NSPersistentStore, @unchecked Sendable {
    /// The registered cache nodes by object identity.
    private var nodesByIdentity: [ObjectIdentity: NSAtomicStoreCacheNode] = [:]

    /// Reads the store's file and registers its objects' cache nodes. Subclasses must override
    /// it, and treat a location without a file, or with an empty one, as a new, empty store.
    open func load() throws {
        throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "\(Swift.type(of: self)) does not override load().")
    }

    /// Writes every cache node, and the metadata, to the store's file. Subclasses must override it.
    open func save() throws {
        throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "\(Swift.type(of: self)) does not override save().")
    }

    /// Returns a new cache node for an object a save inserts, which the store then registers and
    /// fills with ``updateCacheNode(_:from:)``. This implementation returns an empty node.
    open func newCacheNode(for managedObject: NSManagedObject) -> NSAtomicStoreCacheNode {
        NSAtomicStoreCacheNode(objectID: managedObject.objectID)
    }

    /// Copies the values of an object a save inserts or changes into its cache node. This
    /// implementation copies every persistent attribute, each to-one relationship as the
    /// destination's node, and each to-many relationship as a set (ordered set) of nodes.
    open func updateCacheNode(_ node: NSAtomicStoreCacheNode, from managedObject: NSManagedObject) {
        for property in managedObject.entity.properties where !property.isTransient {
            let value = managedObject.value(forKey: property.name)
            switch property {
            case is NSAttributeDescription:
                node.setValue(value, forKey: property.name)
            case let relationship as NSRelationshipDescription where relationship.isToMany:
                let destinations = ((value as? NSOrderedSet)?.array ?? (value as? NSSet)?.allObjects ?? [])
                    .compactMap { ($0 as? NSManagedObject).flatMap { cacheNode(for: $0.objectID) } }
                node.setValue(relationship.isOrdered ? NSOrderedSet(array: destinations) : NSSet(array: destinations), forKey: property.name)
            case is NSRelationshipDescription:
                node.setValue((value as? NSManagedObject).flatMap { cacheNode(for: $0.objectID) }, forKey: property.name)
            default:
                continue
            }
        }
    }

    /// Returns the reference object that names, for good, an object a save inserts; unique in
    /// its entity hierarchy in this store. Subclasses should override it; this implementation
    /// returns a new UUID string.
    open func newReferenceObject(for managedObject: NSManagedObject) -> Any {
        UUID().uuidString
    }

    /// The cache nodes the store holds.
    open func cacheNodes() -> Set<NSAtomicStoreCacheNode> {
        Set(nodesByIdentity.values)
    }

    /// Registers cache nodes; ``load()`` calls it with the nodes it read.
    open func addCacheNodes(_ cacheNodes: Set<NSAtomicStoreCacheNode>) {
        for node in cacheNodes {
            nodesByIdentity[node.objectID.identity] = node
        }
    }

    /// Called before ``save()`` with the cache nodes of the objects the save deletes, which the
    /// store then no longer holds.
    open func willRemoveCacheNodes(_ cacheNodes: Set<NSAtomicStoreCacheNode>) {}

    /// The registered nodes and copies of the values of some of them: what a failed save puts back.
    struct CacheState {
        fileprivate let nodes: [ObjectIdentity: NSAtomicStoreCacheNode]
        fileprivate let values: [(node: NSAtomicStoreCacheNode, values: NSAtomicStoreCacheNode.SavedValues)]
    }

    /// The registered nodes, and the values of `nodes`, as they are now.
    func cacheState(keepingValuesOf nodes: [NSAtomicStoreCacheNode]) -> CacheState {
        CacheState(nodes: nodesByIdentity, values: nodes.map { ($0, $0.savedValues()) })
    }

    /// Puts back the nodes and values of `state`.
    func restore(_ state: CacheState) {
        nodesByIdentity = state.nodes
        for (node, values) in state.values { node.restore(values) }
    }

    /// Forgets cache nodes.
    func removeCacheNodes(_ cacheNodes: Set<NSAtomicStoreCacheNode>) {
        for node in cacheNodes {
            nodesByIdentity[node.objectID.identity] = nil
        }
    }

    /// The cache node of an object, or nil when the store holds no such object.
    open func cacheNode(for objectID: NSManagedObjectID) -> NSAtomicStoreCacheNode? {
        nodesByIdentity[objectID.identity]
    }

    /// Returns the ID of the object of an entity that a reference object names in this store,
    /// for the nodes ``load()`` makes. Do not override it.
    open func objectID(for entity: NSEntityDescription, withReferenceObject data: Any) -> NSManagedObjectID {
        objectID(for: entity, reference: data)
    }

    /// Returns the reference object an ID of this store was made from, to write a node's key.
    open func referenceObject(for objectID: NSManagedObjectID) -> Any {
        reference(of: objectID)
    }
}
