/// Writes objects as the `<object>` elements of an XML store, as Apple's Core Data writes them:
/// the entity name upper-cased, property names lower-cased, attributes before relationships.
enum XMLStoreObjectWriter {
    /// The element of an object.
    ///
    /// - Throws: The transformer's error for a transformable value it cannot turn into data;
    ///   `NSPersistentStoreSaveError` (134030) for a string with a character XML does not allow.
    static func element(of object: AtomicStoreContents.Object) throws -> XMLDocumentElement {
        var element = XMLDocumentElement(name: "object", attributes: [("type", object.entity.entityName.uppercased()), ("id", XMLStoreFormat.identifier(of: object.key))])
        let properties = object.entity.properties.filter { !$0.isTransient }
        for attribute in properties.compactMap({ $0 as? NSAttributeDescription }) {
            guard let value = object.values[attribute.name], !(value is NSNull) else { continue }
            element.children.append(XMLDocumentElement(
                name: "attribute",
                attributes: [("name", attribute.name.lowercased()), ("type", XMLStoreValueCodec.typeName(of: attribute.attributeType))],
                text: try checked(try XMLStoreValueCodec.text(of: value, for: attribute), of: attribute, in: object)
            ))
        }
        for relationship in properties.compactMap({ $0 as? NSRelationshipDescription }) {
            var attributes = [
                ("name", relationship.name.lowercased()), ("type", relationship.isToMany ? "0/0" : "1/1"),
                ("destination", relationship.destinationEntity?.entityName.uppercased() ?? ""),
            ]
            let destinations = object.destinations[relationship.name] ?? []
            if !destinations.isEmpty {
                attributes.append(("idrefs", destinations.map { XMLStoreFormat.identifier(of: $0.key) }.joined(separator: " ")))
            }
            element.children.append(XMLDocumentElement(name: "relationship", attributes: attributes))
        }
        return element
    }

    /// A value's text, when XML can hold each of its characters; Apple's reader, like ours,
    /// would refuse the file otherwise.
    private static func checked(_ text: String, of attribute: NSAttributeDescription, in object: AtomicStoreContents.Object) throws -> String {
        guard let refused = text.unicodeScalars.first(where: { !XMLDocumentParser.allows($0) }) else { return text }
        throw CoreDataError.make(
            NSPersistentStoreSaveError,
            "The XML store cannot hold the value of '\(attribute.name)' of \(object.entity.entityName) \(XMLStoreFormat.identifier(of: object.key)): XML does not allow its character U+\(String(format: "%04X", refused.value)).",
            userInfo: [NSValidationKeyErrorKey: attribute.name]
        )
    }
}
