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
        // Linux Foundation keeps a comparator's options private; `.lexical` is the one
        // comparator the store reproduces byte for byte, the others compare as people read.
        let selector = comparator == .lexical ? "compare:" : "localizedCompare:"
        return NSSortDescriptor(key: key, ascending: ascending, selector: Selector(selector))
    }

    /// The property path of a key path: a persisted property, or one of a to-one relationship's
    /// destination.
    private static func name(of keyPath: AnyKeyPath, in type: any PersistentModel.Type) throws -> String {
        let names = KeyPathNames(type)
        if let name = try? names.name(of: keyPath) { return name }
        for metadata in type.schemaMetadata {
            let valueType = Swift.type(of: metadata.keypath).valueType
            guard let destination = (unwrappedOptional(valueType) ?? valueType) as? any PersistentModel.Type else { continue }
            for nested in destination.schemaMetadata where metadata.keypath.appending(path: nested.keypath) == keyPath {
                return "\(metadata.name).\(nested.name)"
            }
        }
        throw SwiftDataError.unsupportedSortDescriptor("\(keyPath) is not a persisted property of \(type) or of a model it relates to.")
    }
}
