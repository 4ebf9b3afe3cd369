import CoreData

/// Describes a mapping model entity by entity and property by property: what each destination
/// property comes from, with renames, type and optionality changes, and new properties' defaults.
struct MigrationPlanPrinter {
    let source: NSManagedObjectModel
    let destination: NSManagedObjectModel

    func lines(for mapping: NSMappingModel) -> [String] {
        mapping.entityMappings.flatMap(lines(for:))
    }

    private func lines(for mapping: NSEntityMapping) -> [String] {
        let sourceName = mapping.sourceEntityName ?? "?"
        let destinationName = mapping.destinationEntityName ?? "?"
        switch mapping.mappingType {
        case .addEntityMappingType:
            return ["  + \(destinationName): new entity"]
        case .removeEntityMappingType:
            return ["  - \(sourceName): removed, with its rows"]
        case .copyEntityMappingType:
            return ["  = \(destinationName): unchanged"]
        default:
            let title = sourceName == destinationName ? destinationName : "\(sourceName) → \(destinationName) (renamed)"
            guard let sourceEntity = source.entitiesByName[sourceName], let destinationEntity = destination.entitiesByName[destinationName] else {
                return ["  ~ \(title)"]
            }
            let properties = (mapping.attributeMappings ?? []) + (mapping.relationshipMappings ?? [])
            let described = properties.compactMap { propertyLine($0, from: sourceEntity, to: destinationEntity) }
            let used = Set(properties.compactMap { Self.sourcePropertyName($0.valueExpression) })
            let removed = sourceEntity.properties.filter { !$0.isTransient && !used.contains($0.name) }.map { "      - \($0.name): removed" }
            let oldParent = sourceEntity.superentity?.name ?? "none"
            let newParent = destinationEntity.superentity?.name ?? "none"
            let parent = oldParent == newParent ? [] : ["      ~ parent entity: \(oldParent) → \(newParent)"]
            return ["  ~ \(title)"] + parent + described + removed.sorted()
        }
    }

    private func propertyLine(_ mapping: NSPropertyMapping, from sourceEntity: NSEntityDescription, to destinationEntity: NSEntityDescription) -> String? {
        guard let name = mapping.name, let property = destinationEntity.propertiesByName[name] else { return nil }
        guard let sourceName = Self.sourcePropertyName(mapping.valueExpression), let sourceProperty = sourceEntity.propertiesByName[sourceName] else {
            let defaultValue = (property as? NSAttributeDescription)?.defaultValue.map { " (default \($0))" } ?? ""
            return "      + \(name): new\(defaultValue)"
        }
        var changes: [String] = []
        if sourceName != name { changes.append("renamed from \(sourceName)") }
        if let attribute = property as? NSAttributeDescription, let old = sourceProperty as? NSAttributeDescription, old.attributeType != attribute.attributeType {
            changes.append("\(Self.typeName(old.attributeType)) → \(Self.typeName(attribute.attributeType))")
        }
        if let relationship = property as? NSRelationshipDescription, let old = sourceProperty as? NSRelationshipDescription {
            if old.isToMany != relationship.isToMany { changes.append("to-one → to-many") }
            if old.isOrdered != relationship.isOrdered { changes.append(relationship.isOrdered ? "now ordered" : "now unordered") }
        }
        if sourceProperty.isOptional != property.isOptional {
            let defaultValue = (property as? NSAttributeDescription)?.defaultValue.map { ", nil becomes \($0)" } ?? ""
            changes.append(property.isOptional ? "now optional" : "now mandatory\(defaultValue)")
        }
        return changes.isEmpty ? nil : "      ~ \(name): \(changes.joined(separator: "; "))"
    }

    /// The name Xcode's model editor shows for an attribute type.
    static func typeName(_ type: NSAttributeType) -> String {
        switch type {
        case .integer16AttributeType: "Integer 16"
        case .integer32AttributeType: "Integer 32"
        case .integer64AttributeType: "Integer 64"
        case .decimalAttributeType: "Decimal"
        case .doubleAttributeType: "Double"
        case .floatAttributeType: "Float"
        case .stringAttributeType: "String"
        case .booleanAttributeType: "Boolean"
        case .dateAttributeType: "Date"
        case .binaryDataAttributeType: "Binary"
        case .UUIDAttributeType: "UUID"
        case .URIAttributeType: "URI"
        case .transformableAttributeType: "Transformable"
        case .objectIDAttributeType: "Object ID"
        case .compositeAttributeType: "Composite"
        case .undefinedAttributeType: "Undefined"
        }
    }

    /// The source property a value expression reads: `FUNCTION($source, "valueForKey:", "name")`,
    /// the relationship form through `$manager`, or `$source.name`.
    private static func sourcePropertyName(_ expression: NSExpression?) -> String? {
        guard let expression else { return nil }
        if expression.expressionType == .keyPath { return expression.keyPath.components(separatedBy: ".").last }
        guard expression.expressionType == .function else { return nil }
        return expression.arguments?.first?.constantValue as? String
    }
}
