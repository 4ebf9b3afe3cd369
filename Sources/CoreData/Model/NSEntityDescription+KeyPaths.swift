extension NSEntityDescription {
    /// The properties a dotted key path walks through, starting at this entity.
    ///
    /// A collection operator component (`@count`, `@sum`, …) ends the walk.
    ///
    /// - Throws: an error naming the key path and entity when a component is not a property of
    ///   the entity reached so far, or follows an attribute.
    func resolveKeyPath(_ keyPath: String) throws -> [NSPropertyDescription] {
        var entity: NSEntityDescription? = self
        var properties: [NSPropertyDescription] = []
        for component in keyPath.split(separator: ".", omittingEmptySubsequences: false) {
            if component.hasPrefix("@") { break }
            guard let current = entity, let slot = current.layout.slotIndex(forKey: String(component)) else {
                throw CoreDataError.unknownKey(keyPath, entity: entityName)
            }
            let property = current.layout.slots[slot].property
            properties.append(property)
            entity = (property as? NSRelationshipDescription)?.destinationEntity
        }
        return properties
    }
}
