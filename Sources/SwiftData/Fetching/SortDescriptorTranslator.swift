internal import CoreData

/// Translates Foundation's sort descriptors over models into the engine's, which the store
/// sorts by (in SQL, for a SQLite store).
enum SortDescriptorTranslator {
    static func translate<T: PersistentModel>(_ descriptor: SortDescriptor<T>) throws -> NSSortDescriptor {
        guard let keyPath = descriptor.keyPath else {
            throw SwiftDataError.unsupportedSortDescriptor("A sort descriptor without a key path cannot be sorted by the store.")
        }
        let key = try name(of: keyPath, in: T.self)
        let ascending = descriptor.order == .forward
        guard let comparator = descriptor.stringComparator else {
            return NSSortDescriptor(key: key, ascending: ascending)
        }
        return NSSortDescriptor(key: key, ascending: ascending, selector: Selector(selectorName(of: comparator)))
    }

    /// The string comparison method that orders as a comparator does. Linux Foundation keeps a
    /// comparator's options private; `.lexical` is the one comparator the store reproduces byte
    /// for byte, the others compare as people read.
    private static func selectorName(of comparator: String.StandardComparator) -> String {
        comparator == .lexical ? "compare:" : "localizedCompare:"
    }

    /// The property path of a key path: a persisted property, a member of a structure held as a
    /// composite attribute (`\.address.city`), or a property of a to-one relationship's
    /// destination (`\.owner?.name`).
    private static func name(of keyPath: AnyKeyPath, in type: any PersistentModel.Type) throws -> String {
        let names = KeyPathNames(type)
        if let name = try? names.name(of: keyPath) { return name }
        for metadata in type.schemaMetadata {
            if let members = compositeMembers(keyPath, below: metadata.keypath) {
                return metadata.name + members
            }
            let valueType = Swift.type(of: metadata.keypath).valueType
            guard let destination = (unwrappedOptional(valueType) ?? valueType) as? any PersistentModel.Type else { continue }
            for nested in destination.schemaMetadata where isChain(keyPath, of: metadata.keypath, then: nested.keypath, from: destination) {
                return "\(metadata.name).\(nested.name)"
            }
        }
        throw SwiftDataError.unsupportedSortDescriptor("\(keyPath) is not a persisted property of \(type) or of a model it relates to.")
    }

    /// The members a key path reads below a property whose structure is a composite attribute
    /// (`.location.latitude`), from the key path's description, which names each stored member
    /// of a structure, as `isChain` reads an optional chain.
    private static func compositeMembers(_ keyPath: AnyKeyPath, below property: AnyKeyPath) -> String? {
        let valueType = Swift.type(of: property).valueType
        guard let structure = (unwrappedOptional(valueType) ?? valueType) as? any Decodable.Type,
              CompositeShapeProbe.shape(of: structure) != nil else { return nil }
        let description = String(describing: keyPath)
        let prefix = String(describing: property)
        guard description.hasPrefix(prefix) else { return nil }
        var members = description.dropFirst(prefix.count)
        if members.hasPrefix("?") { members = members.dropFirst() }
        if members.hasSuffix("?") { members = members.dropLast() }
        guard members.hasPrefix("."), !members.contains(where: { "<>?()".contains($0) }) else { return nil }
        return String(members)
    }

    /// Whether a key path reads a relationship and then a property of its destination.
    ///
    /// Swift cannot build the optional chain `\.owner?.name` from `\.owner` and `\Owner.name`
    /// (appending gives a key path that is not equal to the written one), so an optional chain
    /// is recognized by its description, which names each component by its accessor.
    private static func isChain(_ keyPath: AnyKeyPath, of relationship: AnyKeyPath, then property: AnyKeyPath, from destination: Any.Type) -> Bool {
        if relationship.appending(path: property) == keyPath { return true }
        let root = "\\\(destination)"
        let propertyDescription = String(describing: property)
        guard propertyDescription.hasPrefix(root) else { return false }
        let chain = "\(relationship)?" + propertyDescription.dropFirst(root.count)
        let description = String(describing: keyPath)
        return description == chain || description == chain + "?"
    }
}
