internal import CoreData

/// A model's identifier: the same for the model in every context, and sendable between them.
public struct PersistentIdentifier: Hashable, Identifiable, Comparable, Codable, Sendable {
    /// The identity of an identifier.
    public struct ID: Hashable, Sendable {
        let uri: URL
    }

    let objectID: NSManagedObjectID

    init(_ objectID: NSManagedObjectID) {
        self.objectID = objectID
    }

    /// The identifier's identity.
    public var id: ID { ID(uri: objectID.uriRepresentation()) }

    /// The name of the model's entity.
    public var entityName: String { objectID.entity.entityName }

    /// The identifier of the store the model is saved in; nil until it is saved.
    public var storeIdentifier: String? {
        objectID.isTemporaryID ? nil : objectID.uriRepresentation().host
    }

    public static func == (lhs: PersistentIdentifier, rhs: PersistentIdentifier) -> Bool {
        lhs.objectID == rhs.objectID
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(objectID)
    }

    public static func < (lhs: PersistentIdentifier, rhs: PersistentIdentifier) -> Bool {
        lhs.objectID.uriRepresentation().absoluteString < rhs.objectID.uriRepresentation().absoluteString
    }

    private enum CodingKeys: String, CodingKey {
        case implementation
    }

    private enum ImplementationKeys: String, CodingKey {
        case uriRepresentation
        case entityName
        case storeIdentifier
        case primaryKey
        case isTemporary
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var implementation = container.nestedContainer(keyedBy: ImplementationKeys.self, forKey: .implementation)
        let uri = objectID.uriRepresentation()
        try implementation.encode(uri, forKey: .uriRepresentation)
        try implementation.encode(entityName, forKey: .entityName)
        try implementation.encodeIfPresent(storeIdentifier, forKey: .storeIdentifier)
        try implementation.encode(uri.lastPathComponent, forKey: .primaryKey)
        try implementation.encode(objectID.isTemporaryID, forKey: .isTemporary)
    }

    /// Decodes an identifier of a model saved in a store that a container of this process has
    /// open.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let implementation = try container.nestedContainer(keyedBy: ImplementationKeys.self, forKey: .implementation)
        let uri = try implementation.decode(URL.self, forKey: .uriRepresentation)
        guard let objectID = ModelContainer.objectID(for: uri) else {
            throw DecodingError.dataCorruptedError(
                forKey: .uriRepresentation, in: implementation, debugDescription: "No open store has the identifier \(uri).")
        }
        self.objectID = objectID
    }
}
