import CoreData

/// An incremental store that keeps each object in a JSON file of its own, in the directory at
/// the store's URL: `Note/<reference>.json`, `Folder/<reference>.json`, and the store's metadata
/// in `metadata.json`.
///
/// An object's file holds its attributes and its relationships, the destinations named by the
/// path of their file without the extension (`"folder": "Folder/6F1C…"`). Core Data asks for an
/// object's attributes when its fault fires (``newValuesForObject(with:with:)``) and for each
/// relationship when it is read (``newValue(forRelationship:forObjectWith:with:)``); a fetch
/// reads every object of the entity and applies the predicate and the order in memory.
/// A save writes each changed object's file atomically (a new file renamed over the old one).
///
/// Call ``register()`` once, then add a store of type ``storeType`` like any other:
///
/// ```swift
/// JSONDirectoryStore.register()
/// let description = NSPersistentStoreDescription(url: directoryURL)
/// description.type = JSONDirectoryStore.storeType.rawValue
/// container.persistentStoreDescriptions = [description]
/// ```
// Core Data calls a store only under its coordinator's lock, which guards the store's state.
public final class JSONDirectoryStore: NSIncrementalStore, @unchecked Sendable {
    /// The type this class is registered for.
    public static let storeType = NSPersistentStore.StoreType(rawValue: "JSONDirectory")

    /// Registers the class for ``storeType``; call it before adding a store of that type.
    public static func register() {
        NSPersistentStoreCoordinator.registerStoreClass(JSONDirectoryStore.self, type: storeType)
    }

    /// The store's type, ``storeType``.
    public override var type: String {
        Self.storeType.rawValue
    }

    /// Reads `metadata.json`, refusing a store written for another version of the model, or
    /// creates the directory and its metadata for a new store.
    public override func loadMetadata() throws {
        let model = try managedObjectModel()
        guard let stored = try readMetadata() else {
            try FileManager.default.createDirectory(at: try directory(), withIntermediateDirectories: true)
            metadata = [
                NSStoreTypeKey: type,
                NSStoreUUIDKey: UUID().uuidString,
                NSStoreModelVersionHashesKey: versionHashes(of: model),
            ]
            try writeMetadata()
            return
        }
        guard model.isConfiguration(withName: configurationName, compatibleWithStoreMetadata: stored) else {
            throw CocoaError(.persistentStoreIncompatibleVersionHash, userInfo: [NSURLErrorKey: try directory()])
        }
        metadata = stored
    }

    /// Answers a fetch with the objects of the entity (and of its subentities when the request
    /// includes them), or saves the changes of an `NSSaveChangesRequest`.
    public override func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext?) throws -> Any {
        if let save = request as? NSSaveChangesRequest {
            try write(save)
            return [Any]()
        }
        guard let fetch = request as? NSFetchRequest<NSFetchRequestResult>, let entity = fetch.entity, let context else {
            throw CocoaError(.persistentStoreUnsupportedRequestType)
        }
        let entities = fetch.includesSubentities ? [entity] + allSubentities(of: entity) : [entity]
        let objectIDs = try entities.flatMap { try storedObjectIDs(of: $0) }
        guard fetch.predicate != nil || !(fetch.sortDescriptors ?? []).isEmpty else {
            return fetch.resultType == .managedObjectIDResultType ? objectIDs : objectIDs.map { context.object(with: $0) }
        }
        // Core Data hands a store's results over as they are on Apple's platforms, so the store
        // applies the predicate and the order itself: here in memory, on the objects. Their
        // files are checked first, as a fault that fails while a predicate reads it cannot throw.
        var objects = try objectIDs.map { objectID in
            _ = try readObjectFile(of: objectID)
            return context.object(with: objectID)
        }
        if let predicate = fetch.predicate {
            objects = objects.filter { predicate.evaluate(with: $0) }
        }
        if let order = fetch.sortDescriptors, !order.isEmpty {
            objects.sort { Self.precedes($0, $1, in: order) }
        }
        return fetch.resultType == .managedObjectIDResultType ? objects.map(\.objectID) : objects
    }

    private static func precedes(_ first: NSManagedObject, _ second: NSManagedObject, in order: [NSSortDescriptor]) -> Bool {
        for descriptor in order {
            switch descriptor.compare(first, to: second) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame: continue
            }
        }
        return false
    }

    /// The attributes of an object, read from its file.
    public override func newValuesForObject(with objectID: NSManagedObjectID, with context: NSManagedObjectContext) throws -> NSIncrementalStoreNode {
        let file = try readObjectFile(of: objectID)
        var values: [String: Any] = [:]
        for (name, attribute) in objectID.entity.attributesByName where !attribute.isTransient {
            values[name] = try file.attributes[name].map { try AttributeJSONCoding.value(from: $0, of: attribute, in: file.url) } ?? NSNull()
        }
        return NSIncrementalStoreNode(objectID: objectID, withValues: values, version: 1)
    }

    /// The destinations of a relationship, read from the object's file: an ID or `NSNull` for a
    /// to-one relationship, an array of IDs for a to-many one.
    public override func newValue(forRelationship relationship: NSRelationshipDescription, forObjectWith objectID: NSManagedObjectID,
                                  with context: NSManagedObjectContext?) throws -> Any {
        let file = try readObjectFile(of: objectID)
        let stored = file.relationships[relationship.name]
        if relationship.isToMany {
            return try (stored as? [String] ?? []).map { try self.objectID(atPath: $0, in: file.url) }
        }
        guard let path = stored as? String else { return NSNull() }
        return try self.objectID(atPath: path, in: file.url)
    }

    /// New objects are named by UUIDs, which are also their files' names.
    public override func obtainPermanentIDs(for array: [NSManagedObject]) throws -> [NSManagedObjectID] {
        array.map { newObjectID(for: $0.entity, referenceObject: UUID().uuidString) }
    }
}
