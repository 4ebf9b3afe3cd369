/// The built-in atomic stores, binary and XML: the whole object graph is read when the store is
/// added, and written to a new file, renamed over the old one, at every save, so a crash leaves
/// the old file or the new one. `Format` reads and writes the file.
///
/// A store written with another model version is refused with 134100 (its metadata carries the
/// model's version hashes), unless `NSIgnorePersistentStoreVersioningOption` is set; adding it
/// with `NSMigratePersistentStoresAutomaticallyOption` migrates it first (`AutomaticMigration`).
// Used only under its coordinator's lock, like every store.
class AtomicFileStore<Format: AtomicStoreFileFormat>: NSAtomicStore, @unchecked Sendable {
    /// The next integer key. Keys are unique in the whole store, as the XML store's `z` numbers
    /// are in files Apple's Core Data writes.
    private var nextKey: Int64 = 1

    override class func location(for url: URL?) throws -> URL {
        guard let url, url.isFileURL else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "An atomic store needs a file URL.")
        }
        return url
    }

    override class func metadataForPersistentStore(with url: URL) throws -> [String: Any] {
        Format.metadata(of: try file(at: url))
    }

    override class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreAt url: URL) throws {
        let file = try file(at: url)
        var merged = Format.metadata(of: file)
        metadata?.forEach { merged[$0.key] = $0.value }
        try Format.data(of: file, replacingMetadataWith: merged).write(to: url, options: .atomic)
    }

    private static func file(at url: URL) throws -> Format.File {
        guard FileManager.default.fileExists(atPath: url.path) else { throw CoreDataError.noSuchFile(url) }
        return try Format.file(from: try Data(contentsOf: url), url: url)
    }

    // MARK: Loading

    /// The first composite attribute of a model, as `Entity.attribute`: the file formats have no
    /// form for one.
    private static func compositeAttribute(in model: NSManagedObjectModel) -> String? {
        for entity in model.entities {
            if let composite = entity.attributesByName.values.first(where: { $0 is NSCompositeAttributeDescription }) {
                return "\(entity.entityName).\(composite.name)"
            }
        }
        return nil
    }

    /// Reads the file, or writes a new, empty one where there is none (or an empty file); a
    /// store opened read-only needs a file.
    override func load() throws {
        guard let url, let model = persistentStoreCoordinator?.managedObjectModel else {
            throw CoreDataError.storeOpen(url, "the \(type) store has no URL or no coordinator.")
        }
        if let composite = Self.compositeAttribute(in: model) {
            throw CoreDataError.make(NSPersistentStoreIncompatibleSchemaError, "The \(type) store cannot hold the composite attribute \(composite); composite attributes are stored by SQLite and in-memory stores.")
        }
        let data = try contents(of: url)
        guard !data.isEmpty else {
            guard !isReadOnly else { throw CoreDataError.storeOpen(url, "the file is missing or empty, so there is no store to open read-only.") }
            return try save()
        }
        let file = try Format.file(from: data, url: url)
        let metadata = Format.metadata(of: file)
        guard isOptionSet(NSIgnorePersistentStoreVersioningOption) || isCompatible(metadata, with: model) else {
            throw incompatibleVersionError(metadata, url: url)
        }
        let contents = try Format.contents(of: file, url: url, model: model)
        try note(lastKey: contents.lastKey, url: url)
        // A file without a UUID keeps the one `load(model:)` gave the store: metadata always
        // holds one. Set before the nodes are made, as object IDs carry it.
        var loaded = contents.metadata
        if !(loaded[NSStoreUUIDKey] is String) { loaded[NSStoreUUIDKey] = identifier }
        storedMetadata = loaded
        identifier = loaded[NSStoreUUIDKey] as? String
        addCacheNodes(Set(try nodes(of: contents.objects, url: url)))
    }

    /// The bytes of the store's file, none when there is no file; a file that cannot be read
    /// is refused rather than taken for a new store and written over.
    private func contents(of url: URL) throws -> Data {
        guard FileManager.default.fileExists(atPath: url.path) else { return Data() }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw CoreDataError.storeOpen(url, "the \(type) store's file cannot be read.", underlying: error)
        }
    }

    /// The cache nodes of the file's objects, their relationships linking nodes.
    ///
    /// - Throws: `NSPersistentStoreOpenError` (134080) for two objects with one key, or a
    ///   relationship to an object the file lacks or of an entity the relationship cannot hold.
    private func nodes(of objects: [AtomicStoreContents.Object], url: URL) throws -> [NSAtomicStoreCacheNode] {
        var nodesByIdentity: [ObjectIdentity: NSAtomicStoreCacheNode] = [:]
        let nodes = try objects.map { object in
            let node = NSAtomicStoreCacheNode(objectID: objectID(for: object.entity, withReferenceObject: object.key))
            guard nodesByIdentity.updateValue(node, forKey: node.objectID.identity) == nil else {
                throw CoreDataError.storeOpen(url, "the \(type) store holds two objects of \(object.entity.entityName) with the key \(object.key).")
            }
            for (name, value) in object.values { node.setValue(value, forKey: name) }
            if let number = object.key as? NSNumber { try note(lastKey: number.int64Value, url: url) }
            return node
        }
        for (object, node) in zip(objects, nodes) {
            let layout = object.entity.layout
            for (name, destinations) in object.destinations {
                guard let slot = layout.slotIndex(forKey: name), let relationship = layout.slots[slot].relationship else { continue }
                let linked = try destinations.map { destination in
                    let destinationID = objectID(for: destination.entity, withReferenceObject: destination.key)
                    guard let linked = nodesByIdentity[destinationID.identity],
                          relationship.destinationEntity.map(linked.objectID.entity.isKindOf(entity:)) ?? true else {
                        throw CoreDataError.storeOpen(url, "the relationship '\(name)' of an object of \(object.entity.entityName) in the \(type) store leads to \(destination.entity.entityName) \(destination.key), which it cannot hold.")
                    }
                    return linked
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

    /// Integers from 1.
    override func newReferenceObject(for managedObject: NSManagedObject) -> Any {
        defer { nextKey += 1 }
        return NSNumber(value: nextKey)
    }

    /// Makes sure new keys come after `lastKey`.
    ///
    /// - Throws: `NSPersistentStoreOpenError` (134080) when `lastKey` is above
    ///   `largestLoadedKey`: no store gives out that many keys, so only a damaged file holds
    ///   it, and counting on from it could overflow.
    private func note(lastKey: Int64?, url: URL) throws {
        guard let lastKey else { return }
        guard lastKey <= Self.largestLoadedKey else { throw CoreDataError.storeOpen(url, "the \(type) store's key \(lastKey) is larger than any store gives out.") }
        nextKey = max(nextKey, lastKey + 1)
    }

    /// 2⁶²: a store would need 2⁶² inserts to give a key above it, and as many more to run
    /// out of integers after it.
    private static var largestLoadedKey: Int64 { 1 << 62 }

    /// Writes every cache node and the metadata to a new file that replaces the old one.
    override func save() throws {
        guard let url else { throw CoreDataError.storeOpen(nil, "the \(type) store has no URL.") }
        let contents = AtomicStoreContents(metadata: storedMetadata, objects: cacheNodes().map(object(of:)), lastKey: nextKey - 1)
        let data = try Format.data(of: contents)
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The \(type) store at \(url.path) could not be written.", userInfo: [NSURLErrorKey: url, NSUnderlyingErrorKey: error])
        }
    }

    private func object(of node: NSAtomicStoreCacheNode) -> AtomicStoreContents.Object {
        let entity = node.objectID.entity
        let values = node.allValues
        var destinations: [String: [AtomicStoreContents.Destination]] = [:]
        for slot in entity.layout.slots {
            guard let relationship = slot.relationship, !relationship.isTransient else { continue }
            let value = values[relationship.name]
            let linked = (value as? NSOrderedSet)?.array ?? (value as? NSSet)?.allObjects ?? value.map { [$0] } ?? []
            // A node the store no longer holds (its object deleted under a no-action delete
            // rule) is left out: the file would name an object it lacks.
            destinations[relationship.name] = linked.compactMap { ($0 as? NSAtomicStoreCacheNode)?.objectID }
                .filter { cacheNode(for: $0) != nil }
                .map { AtomicStoreContents.Destination(entity: $0.entity, key: referenceObject(for: $0)) }
        }
        return AtomicStoreContents.Object(entity: entity, key: referenceObject(for: node.objectID), values: values, destinations: destinations)
    }
}
