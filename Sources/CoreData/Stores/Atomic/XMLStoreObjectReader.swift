/// Reads the `<object>` elements of an XML store for a model: entity names without regard to
/// case, property names too, and `idrefs` resolved through the objects' `id`s.
struct XMLStoreObjectReader {
    /// The `<object>` elements in the file's order, with their `id` and entity.
    private let elements: [(element: XMLDocumentElement, identifier: String, entity: NSEntityDescription)]
    /// The entity of each object, by `id`.
    private let entitiesByIdentifier: [String: NSEntityDescription]
    private let url: URL

    /// - Throws: `NSPersistentStoreOpenError` (134080) for an object without an `id`, two
    ///   objects with one `id`, or an entity the model lacks.
    init(database: XMLDocumentElement, model: NSManagedObjectModel, url: URL) throws {
        let entities = Dictionary(model.entities.map { ($0.entityName.uppercased(), $0) }) { first, _ in first }
        var elements: [(element: XMLDocumentElement, identifier: String, entity: NSEntityDescription)] = []
        var entitiesByIdentifier: [String: NSEntityDescription] = [:]
        for element in database.children(named: "object") {
            guard let identifier = element["id"], let type = element["type"] else {
                throw CoreDataError.storeOpen(url, "the XML store holds an object without an id or a type (line \(element.line)).")
            }
            guard let entity = entities[type.uppercased()] else {
                throw CoreDataError.storeOpen(url, "the XML store holds an object of the entity '\(type)', which the model lacks.")
            }
            guard entitiesByIdentifier.updateValue(entity, forKey: identifier) == nil else {
                throw CoreDataError.storeOpen(url, "the XML store holds two objects with the id '\(identifier)'.")
            }
            elements.append((element, identifier, entity))
        }
        self.elements = elements
        self.entitiesByIdentifier = entitiesByIdentifier
        self.url = url
    }

    /// The objects, in the file's order.
    ///
    /// - Throws: `NSPersistentStoreOpenError` (134080) for a value that cannot be read as its
    ///   attribute's type, or a reference to an object the file lacks.
    func objects() throws -> [AtomicStoreContents.Object] {
        var propertiesByEntity: [ObjectIdentifier: [String: NSPropertyDescription]] = [:]
        return try elements.map { element, identifier, entity in
            let properties = propertiesByEntity[ObjectIdentifier(entity)] ?? Dictionary(entity.properties.map { ($0.name.lowercased(), $0) }) { first, _ in first }
            propertiesByEntity[ObjectIdentifier(entity)] = properties
            var object = AtomicStoreContents.Object(entity: entity, key: XMLStoreFormat.key(of: identifier), values: [:], destinations: [:])
            for child in element.children {
                switch (child.name, child["name"].flatMap { properties[$0.lowercased()] }) {
                case ("attribute", let attribute as NSAttributeDescription):
                    object.values[attribute.name] = try value(of: child, for: attribute, in: identifier)
                case ("relationship", let relationship as NSRelationshipDescription):
                    object.destinations[relationship.name] = try destinations(of: child, in: identifier)
                default:
                    continue
                }
            }
            return object
        }
    }

    private func value(of element: XMLDocumentElement, for attribute: NSAttributeDescription, in identifier: String) throws -> Any {
        guard let value = XMLStoreValueCodec.value(of: element.text, for: attribute) else {
            throw CoreDataError.storeOpen(url, "the XML store holds a value of '\(attribute.name)' in the object '\(identifier)' that is not a \(XMLStoreValueCodec.typeName(of: attribute.attributeType)) (line \(element.line)).")
        }
        return value
    }

    private func destinations(of element: XMLDocumentElement, in identifier: String) throws -> [AtomicStoreContents.Destination] {
        try (element["idrefs"] ?? "").split(whereSeparator: \.isWhitespace).map { reference in
            let destination = String(reference)
            guard let entity = entitiesByIdentifier[destination] else {
                throw CoreDataError.storeOpen(url, "the object '\(identifier)' of the XML store refers to '\(destination)', which the file lacks.")
            }
            return AtomicStoreContents.Destination(entity: entity, key: XMLStoreFormat.key(of: destination))
        }
    }
}
