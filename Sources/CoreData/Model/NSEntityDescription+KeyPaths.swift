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
            _ = try resolve(keyPathComponents: components)
        }
    }
}
