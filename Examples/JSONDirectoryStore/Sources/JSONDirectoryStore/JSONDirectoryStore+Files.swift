import CoreData

/// The files of the store's directory: `metadata.json`, and `<Entity>/<reference>.json` for each
/// object, holding `{"attributes": {…}, "relationships": {…}}`.
extension JSONDirectoryStore {
    /// An object's file, read.
    struct ObjectFile {
        let url: URL
        let attributes: [String: Any]
        let relationships: [String: Any]
    }

    func directory() throws -> URL {
        guard let url else { throw CocoaError(.fileNoSuchFile) }
        return url
    }

    func managedObjectModel() throws -> NSManagedObjectModel {
        guard let model = persistentStoreCoordinator?.managedObjectModel else { throw CocoaError(.persistentStoreInvalidType) }
        return model
    }

    // MARK: Metadata

    private func metadataURL() throws -> URL {
        try directory().appendingPathComponent("metadata.json")
    }

    /// The store's metadata, nil for a new store. JSON has no data, so the model's version hashes
    /// are kept as Base64 strings.
    func readMetadata() throws -> [String: Any]? {
        let url = try metadataURL()
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        var metadata = try readJSONObject(at: url)
        guard let hashes = metadata[NSStoreModelVersionHashesKey] as? [String: String] else { throw corruptFileError(url) }
        metadata[NSStoreModelVersionHashesKey] = try hashes.mapValues { hash in
            guard let data = Data(base64Encoded: hash) else { throw corruptFileError(url) }
            return data
        }
        return metadata
    }

    func writeMetadata() throws {
        var stored = metadata ?? [:]
        stored[NSStoreModelVersionHashesKey] = (stored[NSStoreModelVersionHashesKey] as? [String: Data])?.mapValues { $0.base64EncodedString() }
        try writeJSONObject(stored, to: try metadataURL())
    }

    /// The version hashes of the entities the store holds, as Apple's metadata records them.
    func versionHashes(of model: NSManagedObjectModel) -> [String: Data] {
        let entities = model.entities(forConfigurationName: configurationName) ?? model.entities
        return Dictionary(uniqueKeysWithValues: entities.map { ($0.name ?? "", $0.versionHash) })
    }

    // MARK: Objects

    /// The IDs of the objects of an entity (not of its subentities): one per file of its folder.
    func storedObjectIDs(of entity: NSEntityDescription) throws -> [NSManagedObjectID] {
        guard !entity.isAbstract, let name = entity.name else { return [] }
        let folder = try directory().appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") }
            .map { newObjectID(for: entity, referenceObject: String($0.dropLast(".json".count))) }
    }

    func allSubentities(of entity: NSEntityDescription) -> [NSEntityDescription] {
        entity.subentities.flatMap { [$0] + allSubentities(of: $0) }
    }

    /// The path of an object's file from the directory, without its extension: how relationships
    /// name their destinations.
    func path(of objectID: NSManagedObjectID) -> String {
        "\(objectID.entity.name ?? "")/\(referenceObject(for: objectID))"
    }

    /// The ID of the object a relationship names by its path.
    func objectID(atPath path: String, in file: URL) throws -> NSManagedObjectID {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let entity = try managedObjectModel().entitiesByName[String(parts[0])] else { throw corruptFileError(file) }
        return newObjectID(for: entity, referenceObject: String(parts[1]))
    }

    private func fileURL(of objectID: NSManagedObjectID) throws -> URL {
        try directory().appendingPathComponent(path(of: objectID) + ".json")
    }

    func readObjectFile(of objectID: NSManagedObjectID) throws -> ObjectFile {
        let url = try fileURL(of: objectID)
        let object = try readJSONObject(at: url)
        guard let attributes = object["attributes"] as? [String: Any], let relationships = object["relationships"] as? [String: Any] else {
            throw corruptFileError(url)
        }
        return ObjectFile(url: url, attributes: attributes, relationships: relationships)
    }

    // MARK: Saving

    /// Writes the file of every inserted or updated object and removes those of deleted objects,
    /// then the metadata, which a program may have changed.
    func write(_ save: NSSaveChangesRequest) throws {
        for object in (save.insertedObjects ?? []).union(save.updatedObjects ?? []) {
            try writeObjectFile(of: object)
        }
        for object in save.deletedObjects ?? [] {
            let url = try fileURL(of: object.objectID)
            if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
        }
        try writeMetadata()
    }

    private func writeObjectFile(of object: NSManagedObject) throws {
        var attributes: [String: Any] = [:]
        for (name, attribute) in object.entity.attributesByName where !attribute.isTransient {
            attributes[name] = try AttributeJSONCoding.json(for: object.value(forKey: name), of: attribute)
        }
        var relationships: [String: Any] = [:]
        for (name, relationship) in object.entity.relationshipsByName where !relationship.isTransient {
            relationships[name] = relationshipJSON(object.value(forKey: name), toMany: relationship.isToMany)
        }
        let url = try fileURL(of: object.objectID)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try writeJSONObject(["attributes": attributes, "relationships": relationships], to: url)
    }

    /// A relationship's destinations as paths: one or `null`, or an array (sorted when the
    /// relationship has no order, so that an unchanged object writes the same file).
    private func relationshipJSON(_ value: Any?, toMany: Bool) -> Any {
        guard toMany else { return (value as? NSManagedObject).map { path(of: $0.objectID) } ?? NSNull() }
        if let ordered = value as? NSOrderedSet {
            return ordered.array.compactMap { ($0 as? NSManagedObject).map { path(of: $0.objectID) } }
        }
        return (value as? Set<NSManagedObject> ?? []).map { path(of: $0.objectID) }.sorted()
    }

    // MARK: JSON

    private func readJSONObject(at url: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: url)
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw corruptFileError(url) }
        return object
    }

    /// Writes a new file and renames it over the old one, so that a crash leaves one or the other.
    private func writeJSONObject(_ object: [String: Any], to url: URL) throws {
        guard JSONSerialization.isValidJSONObject(object) else {
            throw CocoaError(.coderInvalidValue, userInfo: [NSLocalizedDescriptionKey: "\(url.lastPathComponent) would hold values JSON cannot keep.", NSURLErrorKey: url])
        }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: url, options: .atomic)
    }

    func corruptFileError(_ url: URL) -> CocoaError {
        CocoaError(.fileReadCorruptFile, userInfo: [NSURLErrorKey: url])
    }
}
