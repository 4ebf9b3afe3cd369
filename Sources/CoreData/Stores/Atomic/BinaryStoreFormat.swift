/// The file format of the binary store (`NSBinaryStoreType`): a binary property list, checked
/// when read.
///
/// Apple's binary store format is not documented, so this one is ours:
///
///     { "format": "CoreDataForLinux.BinaryStore", "version": 1,
///       "metadata": { the store's metadata }, "lastKey": the last integer key given out,
///       "objects": [ { "entity": name, "key": reference object (integer or string),
///                      "attributes": { name: value }, "relationships": { name: [[entity, key], …] } } ] }
///
/// Attribute values are property-list values: strings, numbers, dates and data as they are;
/// decimals, UUIDs and URLs as strings; transformable values as the data their transformer
/// makes. Relationships list their destinations in order.
enum BinaryStoreFormat: AtomicStoreFileFormat {
    static let format = "CoreDataForLinux.BinaryStore"
    static let version = 1

    /// The checked top level of a file.
    struct File {
        let metadata: [String: BinaryPropertyList.Value]
        let objects: [BinaryPropertyList.Value]
        let lastKey: Int64?
    }

    static func metadata(of file: File) -> [String: Any] {
        file.metadata.mapValues(\.propertyListObject)
    }

    static func data(of file: File, replacingMetadataWith metadata: [String: Any]) throws -> Data {
        try data(metadata: metadata, objects: file.objects, lastKey: file.lastKey)
    }

    static func contents(of file: File, url: URL, model: NSManagedObjectModel) throws -> AtomicStoreContents {
        let reader = ObjectReader(model: model, url: url)
        return AtomicStoreContents(metadata: metadata(of: file), objects: try file.objects.map(reader.object(from:)), lastKey: file.lastKey)
    }

    static func data(of contents: AtomicStoreContents) throws -> Data {
        try data(metadata: contents.metadata, objects: contents.objects.map(value(of:)), lastKey: contents.lastKey)
    }

    // MARK: Reading

    static func file(from data: Data, url: URL) throws -> File {
        let top: BinaryPropertyList.Value
        do {
            top = try BinaryPropertyList.parse(data)
        } catch {
            throw CoreDataError.storeOpen(url, "the file is not a binary store (it is not a readable binary property list).", underlying: error)
        }
        guard case .dictionary(let root) = top, case .string(Self.format)? = root["format"] else {
            throw CoreDataError.storeOpen(url, "the file is not a binary store.")
        }
        guard case .number(let version)? = root["version"], version.intValue == Self.version else {
            throw CoreDataError.storeOpen(url, "the file is a binary store of a format version this program does not read.")
        }
        guard case .dictionary(let metadata)? = root["metadata"], case .array(let objects)? = root["objects"] else {
            throw CoreDataError.storeOpen(url, "the binary store has no metadata or no objects.")
        }
        guard case .number(let lastKey)? = root["lastKey"] else { return File(metadata: metadata, objects: objects, lastKey: nil) }
        return File(metadata: metadata, objects: objects, lastKey: lastKey.int64Value)
    }

    /// Reads the file's objects for a model.
    private struct ObjectReader {
        let entities: [String: NSEntityDescription]
        /// Each entity's attributes by name, by entity name.
        let attributes: [String: [String: NSAttributeDescription]]
        let url: URL

        init(model: NSManagedObjectModel, url: URL) {
            entities = model.entitiesByName
            attributes = entities.mapValues(\.attributesByName)
            self.url = url
        }

        func object(from value: BinaryPropertyList.Value) throws -> AtomicStoreContents.Object {
            guard case .dictionary(let fields) = value, case .string(let entityName)? = fields["entity"], let key = fields["key"].flatMap(referenceKey),
                  case .dictionary(let attributes)? = fields["attributes"], case .dictionary(let relationships)? = fields["relationships"] else {
                throw damaged("object")
            }
            let entity = try self.entity(named: entityName)
            var object = AtomicStoreContents.Object(entity: entity, key: key, values: [:], destinations: [:])
            let entityAttributes = self.attributes[entityName] ?? [:]
            for (name, value) in attributes {
                guard let attribute = entityAttributes[name] else { continue }
                guard let decoded = BinaryStoreValueCodec.decode(value, for: attribute) else {
                    throw damaged("value of '\(name)' in an object of \(entityName)")
                }
                object.values[name] = decoded
            }
            for (name, value) in relationships {
                guard case .array(let entries) = value else { throw damaged("relationship") }
                object.destinations[name] = try entries.map(destination(from:))
            }
            return object
        }

        private func destination(from entry: BinaryPropertyList.Value) throws -> AtomicStoreContents.Destination {
            guard case .array(let pair) = entry, pair.count == 2, case .string(let entityName) = pair[0], let key = referenceKey(pair[1]) else {
                throw damaged("relationship")
            }
            return AtomicStoreContents.Destination(entity: try entity(named: entityName), key: key)
        }

        private func entity(named name: String) throws -> NSEntityDescription {
            guard let entity = entities[name] else {
                throw CoreDataError.storeOpen(url, "the binary store holds an object of the entity '\(name)', which the model lacks.")
            }
            return entity
        }

        private func referenceKey(_ value: BinaryPropertyList.Value) -> Any? {
            switch value {
            case .number(let number): number
            case .string(let string): string
            default: nil
            }
        }

        private func damaged(_ part: String) -> NSError {
            CoreDataError.storeOpen(url, "the binary store holds a damaged \(part).")
        }
    }

    // MARK: Writing

    private static func data(metadata: [String: Any], objects: [BinaryPropertyList.Value], lastKey: Int64?) throws -> Data {
        var root: [String: BinaryPropertyList.Value] = [
            "format": .string(Self.format),
            "version": .number(NSNumber(value: Self.version)),
            "metadata": try BinaryPropertyList.Value(propertyList: metadata),
            "objects": .array(objects),
        ]
        root["lastKey"] = lastKey.map { .number(NSNumber(value: $0)) }
        return BinaryPropertyList.serialize(.dictionary(root))
    }

    private static func value(of object: AtomicStoreContents.Object) throws -> BinaryPropertyList.Value {
        var attributes: [String: BinaryPropertyList.Value] = [:]
        for case let attribute as NSAttributeDescription in object.entity.properties where !attribute.isTransient {
            guard let value = object.values[attribute.name], !(value is NSNull) else { continue }
            attributes[attribute.name] = try BinaryStoreValueCodec.encode(value, for: attribute)
        }
        let relationships = object.destinations.mapValues { destinations in
            BinaryPropertyList.Value.array(destinations.map { .array([.string($0.entity.entityName), keyValue($0.key)]) })
        }
        return .dictionary([
            "entity": .string(object.entity.entityName),
            "key": keyValue(object.key),
            "attributes": .dictionary(attributes),
            "relationships": .dictionary(relationships),
        ])
    }

    private static func keyValue(_ key: Any) -> BinaryPropertyList.Value {
        (key as? NSNumber).map { .number($0) } ?? .string("\(key)")
    }
}
