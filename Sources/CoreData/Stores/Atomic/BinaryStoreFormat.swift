/// The file format of the binary store (`NSBinaryStoreType`): a binary property list, checked
/// when read.
///
/// Apple's binary store format is not documented, so this one is ours:
///
///     { "format": "CoreDataForLinux.BinaryStore", "version": 1,
///       "metadata": { the store's metadata },
///       "objects": [ { "entity": name, "key": reference object (integer or string),
///                      "attributes": { name: value }, "relationships": { name: [[entity, key], …] } } ] }
///
/// Attribute values are property-list values: strings, numbers, dates and data as they are;
/// decimals, UUIDs and URLs as strings; transformable values as the data their transformer
/// makes; object-ID attributes as URI strings. Relationships list their destinations in order.
struct BinaryStoreFile {
    static let format = "CoreDataForLinux.BinaryStore"
    static let version = 1

    /// One object of the file.
    struct Object {
        let entityName: String
        let key: Any
        let attributes: [String: BinaryPropertyList.Value]
        let relationships: [String: [(entityName: String, key: Any)]]
    }

    var metadata: [String: Any]
    var objects: [Object]

    /// Parses a store file.
    ///
    /// - Throws: `NSPersistentStoreOpenError` (134080) for data that is not a binary store.
    init(data: Data, url: URL) throws {
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
        self.metadata = metadata.mapValues(\.propertyListObject)
        self.objects = try objects.map { try Self.object(from: $0, url: url) }
    }

    init(metadata: [String: Any], objects: [Object]) {
        self.metadata = metadata
        self.objects = objects
    }

    /// The file's bytes.
    func data() throws -> Data {
        let objects = self.objects.map { object -> BinaryPropertyList.Value in
            let relationships = object.relationships.mapValues { destinations in
                BinaryPropertyList.Value.array(destinations.map { .array([.string($0.entityName), Self.keyValue($0.key)]) })
            }
            return .dictionary([
                "entity": .string(object.entityName),
                "key": Self.keyValue(object.key),
                "attributes": .dictionary(object.attributes),
                "relationships": .dictionary(relationships),
            ])
        }
        return BinaryPropertyList.serialize(.dictionary([
            "format": .string(Self.format),
            "version": .number(NSNumber(value: Self.version)),
            "metadata": try BinaryPropertyList.Value(propertyList: metadata),
            "objects": .array(objects),
        ]))
    }

    private static func keyValue(_ key: Any) -> BinaryPropertyList.Value {
        (key as? NSNumber).map { .number($0) } ?? .string("\(key)")
    }

    private static func object(from value: BinaryPropertyList.Value, url: URL) throws -> Object {
        guard case .dictionary(let fields) = value, case .string(let entityName)? = fields["entity"], let key = fields["key"].flatMap(referenceKey),
              case .dictionary(let attributes)? = fields["attributes"], case .dictionary(let relationships)? = fields["relationships"] else {
            throw CoreDataError.storeOpen(url, "the binary store holds a damaged object.")
        }
        var destinations: [String: [(entityName: String, key: Any)]] = [:]
        for (name, value) in relationships {
            guard case .array(let entries) = value else { throw CoreDataError.storeOpen(url, "the binary store holds a damaged relationship.") }
            destinations[name] = try entries.map { entry in
                guard case .array(let pair) = entry, pair.count == 2, case .string(let destination) = pair[0], let key = referenceKey(pair[1]) else {
                    throw CoreDataError.storeOpen(url, "the binary store holds a damaged relationship.")
                }
                return (destination, key)
            }
        }
        return Object(entityName: entityName, key: key, attributes: attributes, relationships: destinations)
    }

    private static func referenceKey(_ value: BinaryPropertyList.Value) -> Any? {
        switch value {
        case .number(let number): number
        case .string(let string): string
        default: nil
        }
    }
}
