import CoreData

/// What the generator writes for one entity whose code generation type is set.
struct GeneratedEntity {
    let entityName: String
    let codeGeneration: CodeGenerationType
    let className: String
    let superclassName: String
    /// The entity's own attributes and relationships, by name, as Xcode lists them.
    let properties: [GeneratedProperty]
    /// The properties a Swift key path into the class can name: its own and those of the
    /// ancestors whose classes are generated too (a hand-written ancestor's may have other names).
    let keyPathProperties: [GeneratedProperty]

    /// The entity's generation, or nil for an entity Xcode generates nothing for ("Manual/None").
    init?(_ entity: NSEntityDescription) throws {
        guard let codeGeneration = entity.codeGenerationType else { return nil }
        let entityName = entity.entityName
        guard let className = SwiftName.className(entity.managedObjectClassName) else {
            throw Self.error("The entity \(entityName) generates code but has no class name.")
        }
        guard SwiftName.isClassName(className) else {
            throw Self.error("The class name \(className) of the entity \(entityName) is not a Swift identifier that can name a class.")
        }
        let superclassName = entity.superentity.flatMap { SwiftName.className($0.managedObjectClassName) } ?? "NSManagedObject"
        guard superclassName != className else {
            throw Self.error("The entity \(entityName) has the class \(className) of its parent entity.")
        }
        self.entityName = entityName
        self.codeGeneration = codeGeneration
        self.className = className
        self.superclassName = superclassName
        // The layout gives each property the index it has in every object of the entity.
        let slots = EntityLayout(entity: entity).slots
        let ownNames = Set(entity.declaredProperties.map(\.name))
        let own = slots.filter { ownNames.contains($0.name) }
        for slot in own { try Self.check(slot.name, of: entityName) }
        properties = own.map(GeneratedProperty.init).sorted { $0.name < $1.name }
        try Self.checkAccessorNames(of: properties, in: entityName)
        let namable = ownNames.union(Self.generatedAncestorPropertyNames(of: entity))
        keyPathProperties = slots.filter { namable.contains($0.name) }.map(GeneratedProperty.init).sorted { $0.name < $1.name }
    }

    /// Whether the class is the root of its generated hierarchy (it gets the `Identifiable`
    /// conformance, which its subclasses inherit).
    var isRoot: Bool { superclassName == "NSManagedObject" }

    private static func generatedAncestorPropertyNames(of entity: NSEntityDescription) -> Set<String> {
        var names: Set<String> = []
        var ancestor = entity.superentity
        while let current = ancestor {
            if current.codeGenerationType != nil, SwiftName.className(current.managedObjectClassName) != nil {
                names.formUnion(current.declaredProperties.map(\.name))
            }
            ancestor = current.superentity
        }
        return names
    }

    private static func check(_ propertyName: String, of entityName: String) throws {
        guard SwiftName.isPropertyName(propertyName) else {
            throw error("The property \(entityName).\(propertyName) is not named by a Swift identifier.")
        }
        guard !SwiftName.reservedPropertyNames.contains(propertyName) else {
            throw error("The property \(entityName).\(propertyName) has the name of an NSManagedObject property.")
        }
    }

    /// Checks that no two to-many relationships get accessors of the same name (`others` and
    /// `Others` both get `addToOthers`), and that no property has an accessor's name.
    private static func checkAccessorNames(of properties: [GeneratedProperty], in entityName: String) throws {
        var owners: [String: String] = [:]
        for property in properties {
            owners[property.name] = property.name
        }
        for property in properties where property.toMany != nil {
            let stem = SwiftName.capitalized(property.name)
            for accessor in ["addTo", "removeFrom", "insertInto", "replace"].map({ $0 + stem }) {
                if let owner = owners.updateValue(property.name, forKey: accessor), owner != property.name {
                    throw error("The accessor \(accessor) of \(entityName).\(property.name) has the name of \(entityName).\(owner) or of its accessors.")
                }
            }
        }
    }

    /// A code-generation error: the message is its description, as Xcode's code generation has no
    /// Core Data error of its own to match.
    static func error(_ description: String) -> NSError {
        CoreDataError.make(NSCoreDataError, localizedDescription: description)
    }
}
