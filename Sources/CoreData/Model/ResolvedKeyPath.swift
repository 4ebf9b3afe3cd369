/// A dotted key path resolved against an entity: the properties it walks, and what follows them.
///
/// This is the one place the model's key paths are walked; dictionary fetches, prefetching,
/// fetched results controllers, the check of a fetch's key paths and the SQL compiler read their
/// key paths through it, each adding only its own rules (a dictionary fetch refuses a to-many
/// step, SQL cannot read into an attribute's value).
///
/// The walk goes through relationships, to-one and to-many alike, to the entity each one leads
/// to. It stops at an attribute, whose value key-value coding reads further (`title.length`),
/// and at a collection operator (`characters.@count`); those components are the `remainder`.
/// `self` components stand for the object reached so far and are skipped.
struct ResolvedKeyPath {
    /// One property the key path walks through.
    struct Step {
        /// The entity whose property this is: the root entity, or the destination of the step
        /// before.
        let entity: NSEntityDescription
        /// The property's slot in `entity`'s layout.
        let slot: Int
        let property: NSPropertyDescription
        /// The position of the property's component in the key path.
        let position: Int

        var kind: EntityLayout.SlotKind { entity.layout.slots[slot].kind }
        var relationship: NSRelationshipDescription? { property as? NSRelationshipDescription }
    }

    let components: [String]
    let steps: [Step]
    /// The components after the last step: keys into an attribute's value, or a collection
    /// operator and the key path it takes.
    var remainder: ArraySlice<String> { components[((steps.last?.position ?? -1) + 1)...].drop { $0.lowercased() == "self" } }

    /// The components after a step.
    func components(after step: Step) -> ArraySlice<String> {
        components[(step.position + 1)...]
    }

    /// The relationships the key path walks, in order (every step when the path does not end
    /// at an attribute).
    var relationships: [NSRelationshipDescription] { steps.compactMap(\.relationship) }

    /// The leaf attribute of a composite attribute that the key path ends at
    /// (`magnitude.richter`), if it does.
    var compositeLeaf: NSCompositeAttributeDescription.Leaf? {
        guard let composite = steps.last?.property as? NSCompositeAttributeDescription, !remainder.isEmpty else { return nil }
        return composite.leaf(atElementPath: remainder.joined(separator: "."))
    }

    /// The first step through a to-many relationship, if any.
    var firstToManyIndex: Int? {
        steps.firstIndex { $0.relationship?.isToMany == true }
    }
}

extension NSEntityDescription {
    /// Resolves a dotted key path against this entity.
    ///
    /// - Throws: `CoreDataError.unknownKey` naming the whole key path and this entity when a
    ///   component is not a property of the entity reached so far.
    func resolve(keyPath: String) throws -> ResolvedKeyPath {
        try resolve(keyPathComponents: keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
    }

    /// Resolves a key path given as its components (see `resolve(keyPath:)`).
    func resolve(keyPathComponents components: [String]) throws -> ResolvedKeyPath {
        var entity = self
        var steps: [ResolvedKeyPath.Step] = []
        for (position, component) in components.enumerated() {
            if component.hasPrefix("@") { break }
            if component.lowercased() == "self" { continue }
            guard let slot = entity.layout.slotIndex(forKey: component) else {
                throw CoreDataError.unknownKey(components.joined(separator: "."), entity: entityName)
            }
            let step = ResolvedKeyPath.Step(entity: entity, slot: slot, property: entity.layout.slots[slot].property, position: position)
            steps.append(step)
            guard let destination = step.relationship?.destinationEntity else { break }
            entity = destination
        }
        return ResolvedKeyPath(components: components, steps: steps)
    }
}
