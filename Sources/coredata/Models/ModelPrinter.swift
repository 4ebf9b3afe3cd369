import CoreData

/// A model as `coredata model` prints it: each entity with its version hash, parent and
/// properties, and the model's version checksum.
struct ModelPrinter {
    let model: NSManagedObjectModel

    var lines: [String] {
        ["Version checksum  \(model.versionChecksum)"] + model.entities.sorted { ($0.name ?? "") < ($1.name ?? "") }.flatMap(lines(for:))
    }

    private func lines(for entity: NSEntityDescription) -> [String] {
        var traits: [String] = []
        if entity.isAbstract { traits.append("abstract") }
        if let parent = entity.superentity?.name { traits.append("parent \(parent)") }
        let title = "\(entity.name ?? "?")  \(entity.versionHash.base64EncodedString())" + (traits.isEmpty ? "" : "  (\(traits.joined(separator: ", ")))")
        var table = TextTable("property", "kind", "details")
        for property in entity.properties.sorted(by: { $0.name < $1.name }) {
            table.append(cells: [property.name] + Self.description(of: property))
        }
        return ["", title, table.rendered]
    }

    /// The kind of a property (its type, or its cardinality and destination) and its traits.
    private static func description(of property: NSPropertyDescription) -> [String] {
        var details = [property.isOptional ? "optional" : "mandatory"]
        if property.isTransient { details.append("transient") }
        if let attribute = property as? NSAttributeDescription {
            if let defaultValue = attribute.defaultValue { details.append("default \(defaultValue)") }
            if attribute.allowsExternalBinaryDataStorage { details.append("external storage") }
            return [MigrationPlanPrinter.typeName(attribute.attributeType), details.joined(separator: ", ")]
        }
        if let relationship = property as? NSRelationshipDescription {
            if let inverse = relationship.inverseRelationship?.name { details.append("inverse \(inverse)") }
            details.append("delete rule \(deleteRuleName(relationship.deleteRule))")
            if relationship.isOrdered { details.append("ordered") }
            let kind = (relationship.isToMany ? "to-many → " : "to-one → ") + (relationship.destinationEntity?.name ?? "?")
            return [kind, details.joined(separator: ", ")]
        }
        return ["fetched property", details.joined(separator: ", ")]
    }

    private static func deleteRuleName(_ rule: NSDeleteRule) -> String {
        switch rule {
        case .noActionDeleteRule: "No Action"
        case .nullifyDeleteRule: "Nullify"
        case .cascadeDeleteRule: "Cascade"
        case .denyDeleteRule: "Deny"
        @unknown default: "\(rule.rawValue)"
        }
    }
}
