extension NSEntityDescription {
    /// The compound indexes for the entity as an array of arrays, the form `indexes` replaced.
    ///
    /// Each inner array lists the properties of one index, as `NSAttributeDescription`s and
    /// `NSRelationshipDescription`s of the entity or as their names. Setting it replaces `indexes`
    /// with one binary index per array, named after its properties (`latitude_longitude`), which
    /// the SQLite store creates as `Z_<Entity>_latitude_longitude`, as Core Data does with the
    /// compound indexes of old model files; names of properties the entity does not have are left
    /// out. Reading it gives the properties of each of `indexes`.
    @available(*, deprecated, message: "Use NSEntityDescription.indexes instead")
    public var compoundIndexes: [[Any]] {
        get { indexes.map { index in index.elements.compactMap(\.property) } }
        set {
            let properties = propertiesByName
            indexes = newValue.compactMap { members in
                let indexed = members.compactMap { member in
                    (member as? NSPropertyDescription) ?? (member as? String).flatMap { properties[$0] }
                }
                return indexed.isEmpty ? nil : NSFetchIndexDescription.compoundIndex(of: indexed)
            }
        }
    }
}

extension NSFetchIndexDescription {
    /// The fetch index Core Data makes of a legacy compound index: binary, ascending, named after
    /// its properties.
    static func compoundIndex(of properties: [NSPropertyDescription]) -> NSFetchIndexDescription {
        NSFetchIndexDescription(
            name: properties.map(\.name).joined(separator: "_"),
            elements: properties.map { NSFetchIndexElementDescription(property: $0, collationType: .binary) }
        )
    }
}
