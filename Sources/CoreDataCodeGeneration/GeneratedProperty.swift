import CoreData

/// An attribute or relationship as the generator declares it: its name, its index in the entity
/// (which the accessors pass to `value(atPropertyIndex:named:)`), and its Swift type.
struct GeneratedProperty {
    /// A to-many relationship, which gets the accessors that add and remove destinations.
    struct ToMany {
        let destinationClass: String
        let isOrdered: Bool
    }

    let name: String
    let index: Int
    let type: GeneratedValueType
    let toMany: ToMany?

    init(slot: EntityLayout.Slot) {
        name = slot.name
        index = slot.index
        switch slot.kind {
        case .attribute(let attribute):
            type = GeneratedValueType(attribute)
            toMany = nil
        case .toOne(let relationship):
            type = .object(Self.destinationClass(of: relationship))
            toMany = nil
        case .toMany(let relationship):
            type = .object(relationship.isOrdered ? "NSOrderedSet" : "NSSet")
            toMany = ToMany(destinationClass: Self.destinationClass(of: relationship), isOrdered: relationship.isOrdered)
        }
    }

    /// The property's name in declarations and key paths.
    var identifier: String { SwiftName.escaped(name) }

    /// The arguments that find the property in the object's storage.
    var location: String { "atPropertyIndex: \(index), named: \(SwiftName.literal(name))" }

    private static func destinationClass(of relationship: NSRelationshipDescription) -> String {
        SwiftName.className(relationship.destinationEntity?.managedObjectClassName) ?? "NSManagedObject"
    }
}
