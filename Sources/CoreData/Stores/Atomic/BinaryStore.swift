/// The binary store (`NSBinaryStoreType`): an atomic store whose whole object graph is read when
/// the store is added and written to a new file, renamed over the old one, at every save, so a
/// crash leaves the old file or the new one (see `BinaryStoreFile` for the format).
///
/// A store written with another model version is refused with 134100 (its metadata carries the
/// model's version hashes), unless `NSIgnorePersistentStoreVersioningOption` is set.
// Used only under its coordinator's lock, like every store.
final class BinaryStore: NSAtomicStore, @unchecked Sendable {
    /// The next integer key of each entity hierarchy, by root entity name.
    private var nextKeys: [String: Int64] = [:]

    override var type: String {
        NSBinaryStoreType
    }

    override class func location(for url: URL?) throws -> URL {
        guard let url, url.isFileURL else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "A binary store needs a file URL.")
        }
        return url
    }

    override class func metadataForPersistentStore(with url: URL) throws -> [String: Any] {
        try readFile(at: url).metadata
    }

    override class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreAt url: URL) throws {
        var file = try readFile(at: url)
        metadata?.forEach { file.metadata[$0.key] = $0.value }
        try file.data().write(to: url, options: .atomic)
    }

    private static func readFile(at url: URL) throws -> BinaryStoreFile {
        guard FileManager.default.fileExists(atPath: url.path) else { throw CoreDataError.noSuchFile(url) }
        return try BinaryStoreFile(data: try Data(contentsOf: url), url: url)
    }

    // MARK: Loading

    /// Reads the file, or writes a new, empty one where there is none (or an empty file).
    override func load() throws {
        guard let url, let model = persistentStoreCoordinator?.managedObjectModel else {
            throw CoreDataError.storeOpen(url, "the binary store has no URL or no coordinator.")
        }
        let data = FileManager.default.contents(atPath: url.path) ?? Data()
        guard !data.isEmpty else { return try save() }
        let file = try BinaryStoreFile(data: data, url: url)
        guard isOptionSet(NSIgnorePersistentStoreVersioningOption) || isCompatible(file.metadata, with: model) else {
            throw incompatibleVersionError(file.metadata, url: url)
        }
        storedMetadata = file.metadata
        identifier = file.metadata[NSStoreUUIDKey] as? String
        try addCacheNodes(Set(nodes(of: file, model: model, url: url)))
    }

    /// The cache nodes of the file's objects, their relationships linking nodes.
    private func nodes(of file: BinaryStoreFile, model: NSManagedObjectModel, url: URL) throws -> [NSAtomicStoreCacheNode] {
        let entities = model.entitiesByName
        var nodes: [NSAtomicStoreCacheNode] = []
        var nodesByID: [NSManagedObjectID: NSAtomicStoreCacheNode] = [:]
        for object in file.objects {
            guard let entity = entities[object.entityName] else {
                throw CoreDataError.storeOpen(url, "the binary store holds an object of the entity '\(object.entityName)', which the model lacks.")
            }
            let node = NSAtomicStoreCacheNode(objectID: objectID(for: entity, withReferenceObject: object.key))
            for (name, value) in object.attributes {
                guard let attribute = entity.attributesByName[name] else { continue }
                node.setValue(BinaryStoreValueCodec.decode(value, for: attribute, coordinator: persistentStoreCoordinator), forKey: name)
            }
            note(key: object.key, of: entity)
            nodes.append(node)
            nodesByID[node.objectID] = node
        }
        for (object, node) in zip(file.objects, nodes) {
            let entity = node.objectID.entity
            for (name, destinations) in object.relationships {
                guard let relationship = entity.relationshipsByName[name] else { continue }
                let linked = destinations.compactMap { destination in
                    entities[destination.entityName].flatMap { nodesByID[objectID(for: $0, withReferenceObject: destination.key)] }
                }
                if relationship.isToMany {
                    node.setValue(relationship.isOrdered ? NSOrderedSet(array: linked) : NSSet(array: linked), forKey: name)
                } else {
                    node.setValue(linked.first, forKey: name)
                }
            }
        }
        return nodes
    }

    // MARK: Saving

    /// Integers from 1, per entity hierarchy.
    override func newReferenceObject(for managedObject: NSManagedObject) -> Any {
        let root = managedObject.entity.rootEntity.entityName
        let key = nextKeys[root, default: 1]
        nextKeys[root] = key + 1
        return NSNumber(value: key)
    }

    private func note(key: Any, of entity: NSEntityDescription) {
        guard let number = key as? NSNumber else { return }
        let root = entity.rootEntity.entityName
        nextKeys[root] = max(nextKeys[root, default: 1], number.int64Value + 1)
    }

    /// Writes every cache node and the metadata to a new file that replaces the old one.
    override func save() throws {
        guard let url else { throw CoreDataError.storeOpen(nil, "the binary store has no URL.") }
        let objects = try cacheNodes().map(object(of:))
        let data = try BinaryStoreFile(metadata: storedMetadata, objects: objects).data()
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The binary store at \(url.path) could not be written.", userInfo: [NSURLErrorKey: url, NSUnderlyingErrorKey: error])
        }
    }

    private func object(of node: NSAtomicStoreCacheNode) throws -> BinaryStoreFile.Object {
        let entity = node.objectID.entity
        var attributes: [String: BinaryPropertyList.Value] = [:]
        var relationships: [String: [(entityName: String, key: Any)]] = [:]
        for property in entity.properties where !property.isTransient {
            let value = node.value(forKey: property.name)
            switch property {
            case let attribute as NSAttributeDescription:
                guard let value, !(value is NSNull) else { continue }
                attributes[attribute.name] = try BinaryStoreValueCodec.encode(value, for: attribute)
            case is NSRelationshipDescription:
                let destinations = (value as? NSOrderedSet)?.array ?? (value as? NSSet)?.allObjects ?? value.map { [$0] } ?? []
                relationships[property.name] = destinations.compactMap { ($0 as? NSAtomicStoreCacheNode)?.objectID }
                    .map { ($0.entity.entityName, referenceObject(for: $0)) }
            default:
                continue
            }
        }
        return BinaryStoreFile.Object(entityName: entity.entityName, key: referenceObject(for: node.objectID), attributes: attributes, relationships: relationships)
    }
}
