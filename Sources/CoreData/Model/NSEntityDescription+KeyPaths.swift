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

extension NSEntityDescription {
    /// Checks the key paths that a fetch's predicate and sort descriptors read from objects of
    /// this entity, before any store runs: Apple's SQLite store refuses an unknown key
    /// ("keypath director not found in entity Movie") whether or not rows exist, and checking
    /// here makes every store, the overlay of unsaved changes and child contexts refuse it alike.
    ///
    /// Each component up to the first attribute must be a property of the entity reached so far;
    /// what follows an attribute reads its value by key-value coding (`title.length`), and a
    /// collection operator ends the path's properties (`characters.@count`).
    func checkKeyPaths(readBy predicate: NSPredicate?, sortDescriptors: [NSSortDescriptor]) throws {
        let keyPaths = (predicate?.node.evaluatedObjectKeyPaths ?? []) + sortDescriptors.compactMap(\.keyPathComponents)
        for components in keyPaths {
            var entity: NSEntityDescription? = self
            for component in components where component.lowercased() != "self" {
                guard let current = entity, !component.hasPrefix("@") else { break }
                guard let slot = current.layout.slotIndex(forKey: component) else {
                    throw CoreDataError.unknownKey(components.joined(separator: "."), entity: entityName)
                }
                entity = (current.layout.slots[slot].property as? NSRelationshipDescription)?.destinationEntity
            }
        }
    }
}
