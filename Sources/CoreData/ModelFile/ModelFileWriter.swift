/// Writes a managed object model as the `contents` XML of a model file, in Xcode's order:
/// entities sorted by name (attributes, then relationships, then fetched properties, each
/// sorted), composites, fetch request templates, configurations. Reading the result gives an
/// equal model with equal version hashes.
///
/// What a model file cannot state fails with an error naming it: a validation predicate other
/// than the minimums, maximums and regular expressions Xcode's editor sets, a sort descriptor
/// or other setting of a fetch request template beyond the editor's, an expression property.
struct ModelFileWriter {
    /// The `<composite>` declarations the attributes written so far use, by name.
    private var composites: [String: XMLDocumentElement] = [:]

    /// The `contents` document of a model.
    static func contents(of model: NSManagedObjectModel) throws -> String {
        var writer = ModelFileWriter()
        return try writer.element(of: model).document()
    }

    private mutating func element(of model: NSManagedObjectModel) throws -> XMLDocumentElement {
        var attributes: [(String, String)] = [
            ("type", "com.apple.IDECoreDataModeler.DataModel"), ("documentVersion", "1.0"),
            ("minimumToolsVersion", "Automatic"), ("sourceLanguage", "Swift"),
        ]
        if let identifier = model.versionIdentifiers.first {
            guard model.versionIdentifiers.count == 1, let identifier = identifier.base as? String else {
                throw Self.unwritable("a model file holds one version identifier, a string; the model has \(model.versionIdentifiers.count)")
            }
            attributes.append(("userDefinedModelVersionIdentifier", identifier))
        }
        var children = try model.entities.sorted { $0.entityName < $1.entityName }.map { try element(of: $0) }
        children += composites.keys.sorted().compactMap { composites[$0] }
        for (name, request) in model.fetchRequestTemplatesByName.sorted(by: { $0.key < $1.key }) {
            children.append(try Self.element(of: request, named: name, at: "the fetch request template \"\(name)\""))
        }
        for configuration in model.configurations {
            let members = (model.entities(forConfigurationName: configuration) ?? []).map { XMLDocumentElement(name: "memberEntity", attributes: [("name", $0.entityName)]) }
            children.append(XMLDocumentElement(name: "configuration", attributes: [("name", configuration)], children: members))
        }
        return XMLDocumentElement(name: "model", attributes: attributes, children: children)
    }

    // MARK: Entities

    private mutating func element(of entity: NSEntityDescription) throws -> XMLDocumentElement {
        guard !entity.entityName.isEmpty else { throw Self.unwritable("an entity has no name") }
        var attributes: [(String, String)] = [("name", entity.entityName)]
        if let className = entity.managedObjectClassName, className != "NSManagedObject" { attributes.append(("representedClassName", className)) }
        if let parent = entity.superentity { attributes.append(("parentEntity", parent.entityName)) }
        if entity.isAbstract { attributes.append(("isAbstract", "YES")) }
        attributes.append(optional: entity.renamingIdentifier, as: "elementID")
        attributes.append(optional: entity.versionHashModifier, as: "versionHashModifier")
        attributes.append(optional: entity.codeGenerationType?.rawValue, as: "codeGenerationType")

        let declared = entity.declaredProperties.sorted { $0.name < $1.name }
        var children: [XMLDocumentElement] = []
        for case let attribute as NSAttributeDescription in declared {
            children.append(try element(of: attribute))
        }
        for case let relationship as NSRelationshipDescription in declared {
            children.append(try Self.element(of: relationship))
        }
        for case let fetched as NSFetchedPropertyDescription in declared {
            children.append(try Self.element(of: fetched))
        }
        if let unwritable = declared.first(where: { !($0 is NSAttributeDescription || $0 is NSRelationshipDescription || $0 is NSFetchedPropertyDescription) }) {
            throw Self.unwritable("the property \"\(unwritable.name)\" of \(entity.entityName) is a \(type(of: unwritable)), which a model file cannot hold")
        }
        children += try entity.indexes.map { try Self.element(of: $0, in: entity) }
        if !entity.uniquenessConstraints.isEmpty {
            let constraints = entity.uniquenessConstraints.map { constraint in
                XMLDocumentElement(name: "uniquenessConstraint", attributes: [], children: constraint.map { member in
                    XMLDocumentElement(name: "constraint", attributes: [("value", (member as? NSPropertyDescription)?.name ?? "\(member)")])
                })
            }
            children.append(XMLDocumentElement(name: "uniquenessConstraints", attributes: [], children: constraints))
        }
        children += Self.userInfo(entity.userInfo)
        return XMLDocumentElement(name: "entity", attributes: attributes, children: children)
    }

    private static func element(of index: NSFetchIndexDescription, in entity: NSEntityDescription) throws -> XMLDocumentElement {
        guard index.partialIndexPredicate == nil else { throw unwritable("the index \"\(index.name)\" of \(entity.entityName) has a partial index predicate, which a model file cannot state") }
        let elements = try index.elements.map { element -> XMLDocumentElement in
            var attributes: [(String, String)] = []
            if let expression = element.property as? NSExpressionDescription {
                attributes.append(("expression", expression.expression?.description ?? expression.name))
                attributes.append(("expressionType", ModelFileReader.typeName(expression.expressionResultType)))
            } else if let name = element.propertyName {
                attributes.append(("property", name))
            } else {
                throw unwritable("an element of the index \"\(index.name)\" of \(entity.entityName) has no property")
            }
            attributes.append(("type", element.collationType == .rTree ? "RTree" : "Binary"))
            attributes.append(("order", element.isAscending ? "ascending" : "descending"))
            return XMLDocumentElement(name: "fetchIndexElement", attributes: attributes)
        }
        return XMLDocumentElement(name: "fetchIndex", attributes: [("name", index.name)], children: elements)
    }

    // MARK: Properties

    /// The attributes every kind of property writes first.
    private static func basics(of property: NSPropertyDescription) throws -> [(String, String)] {
        guard !property.name.isEmpty else { throw unwritable("a property of \(property.owner?.entityName ?? "an entity") has no name") }
        var attributes: [(String, String)] = [("name", property.name)]
        if property.isOptional { attributes.append(("optional", "YES")) }
        if property.isTransient { attributes.append(("transient", "YES")) }
        return attributes
    }

    /// The attributes every kind of property writes last.
    private static func trailingBasics(of property: NSPropertyDescription) -> [(String, String)] {
        var attributes: [(String, String)] = []
        if property.isIndexed { attributes.append(("indexed", "YES")) }
        if property.isIndexedBySpotlight { attributes.append(("spotlightIndexingEnabled", "YES")) }
        if property.isStoredInExternalRecord { attributes.append(("storedInTruthFile", "YES")) }
        attributes.append(optional: property.versionHashModifier, as: "versionHashModifier")
        attributes.append(optional: property.renamingIdentifier, as: "elementID")
        return attributes
    }

    private mutating func element(of attribute: NSAttributeDescription) throws -> XMLDocumentElement {
        var attributes = try Self.basics(of: attribute)
        attributes.append(("attributeType", ModelFileReader.typeName(attribute.attributeType)))
        if let derived = attribute as? NSDerivedAttributeDescription {
            guard let expression = derived.derivationExpression else { throw Self.unwritable("the derived attribute \"\(attribute.name)\" has no derivation expression") }
            attributes += [("derived", "YES"), ("derivationExpression", expression.description)]
        }
        attributes += try Self.validationAttributes(of: attribute)
        attributes += try Self.defaultValueAttributes(of: attribute)
        if let scalar = attribute.usesScalarValueType { attributes.append(("usesScalarValueType", scalar ? "YES" : "NO")) }
        attributes.append(optional: attribute.valueTransformerName, as: "valueTransformerName")
        if attribute.attributeValueClassName != attribute.attributeType.valueClassName {
            attributes.append(optional: attribute.attributeValueClassName, as: "customClassName")
        }
        if attribute.allowsExternalBinaryDataStorage { attributes.append(("allowsExternalBinaryDataStorage", "YES")) }
        if attribute.preservesValueInHistoryOnDeletion { attributes.append(("preserveAfterDeletion", "YES")) }
        if attribute.allowsCloudEncryption { attributes.append(("allowsCloudEncryption", "YES")) }
        if let composite = attribute as? NSCompositeAttributeDescription {
            attributes.append(("composite", try declare(composite)))
        }
        attributes += Self.trailingBasics(of: attribute)
        return XMLDocumentElement(name: "attribute", attributes: attributes, children: Self.userInfo(attribute.userInfo))
    }

    /// Adds the `<composite>` that declares a composite attribute's elements, returning its name.
    /// Composites keep their elements in their order; a name already declared is not declared
    /// again, so that each is written once however often attributes use it.
    private mutating func declare(_ composite: NSCompositeAttributeDescription) throws -> String {
        let name = composite.compositeName ?? composite.name
        guard composites[name] == nil else { return name }
        let elements = try composite.elements.map { try element(of: $0) }
        composites[name] = XMLDocumentElement(name: "composite", attributes: [("name", name)], children: elements)
        return name
    }

    private static func defaultValueAttributes(of attribute: NSAttributeDescription) throws -> [(String, String)] {
        guard let value = attribute.defaultValue else { return [] }
        if let date = value as? Date {
            return [("defaultValueString", ModelFileDate.string(from: date)), ("defaultDateTimeInterval", "\(date.timeIntervalSinceReferenceDate)")]
        }
        return [("defaultValueString", try text(of: value, type: attribute.attributeType, at: "the default value of \"\(attribute.name)\""))]
    }

    /// A value as a model file writes it.
    private static func text(of value: Any, type: NSAttributeType, at place: String) throws -> String {
        switch value {
        case let number as NSDecimalNumber: return number.stringValue
        case let number as NSNumber where type == .booleanAttributeType: return number.boolValue ? "YES" : "NO"
        case let number as NSNumber where type == .doubleAttributeType: return "\(number.doubleValue)"
        case let number as NSNumber where type == .floatAttributeType: return "\(number.floatValue)"
        case let number as NSNumber: return number.stringValue
        case let string as String: return string
        case let uuid as UUID: return uuid.uuidString
        case let url as URL: return url.absoluteString
        default: throw unwritable("\(place) (\(value)) cannot be written to a model file")
        }
    }

    private static func validationAttributes(of attribute: NSAttributeDescription) throws -> [(String, String)] {
        var attributes: [(String, String)] = []
        for (index, predicate) in attribute.validationPredicates.enumerated() {
            let warning = index < attribute.validationWarnings.count ? attribute.validationWarnings[index] : nil
            guard let rule = ValidationRule(predicate: predicate, warning: warning) else {
                throw unwritable("the validation predicate \"\(predicate.predicateFormat)\" of \"\(attribute.name)\" is not a minimum, maximum or regular expression, which is all a model file can state")
            }
            switch rule.kind {
            case .bound(let bound, let limit as Date):
                attributes += [(bound.attribute, ModelFileDate.string(from: limit)), (bound.dateAttribute, "\(limit.timeIntervalSinceReferenceDate)")]
            case .bound(let bound, let limit as NSNumber):
                let value = limit.doubleValue
                attributes.append((bound.attribute, value.rounded() == value && abs(value) < 1e15 ? "\(Int64(value))" : "\(value)"))
            case .bound(let bound, let limit):
                throw unwritable("the \(bound.attribute) of \"\(attribute.name)\" (\(limit)) is not a number or a date")
            case .pattern(let pattern):
                attributes.append(("regularExpressionString", pattern))
            }
        }
        guard Set(attributes.map(\.0)).count == attributes.count else {
            throw unwritable("\"\(attribute.name)\" has two validation rules of one kind (two minimums, say), which a model file cannot state")
        }
        return attributes
    }

    private static func element(of relationship: NSRelationshipDescription) throws -> XMLDocumentElement {
        guard let destination = relationship.destinationEntity else { throw unwritable("the relationship \"\(relationship.name)\" has no destination entity") }
        var attributes = try basics(of: relationship)
        if relationship.isToMany { attributes.append(("toMany", "YES")) }
        if relationship.isOrdered { attributes.append(("ordered", "YES")) }
        if relationship.minCount != 0 { attributes.append(("minCount", "\(relationship.minCount)")) }
        if relationship.maxCount != 0 { attributes.append(("maxCount", "\(relationship.maxCount)")) }
        let rule = ModelFileReader.deleteRulesByName.first { $0.value == relationship.deleteRule }?.key ?? "Nullify"
        attributes += [("deletionRule", rule), ("destinationEntity", destination.entityName)]
        if let inverse = relationship.inverseRelationship {
            guard let inverseEntity = inverse.owner else { throw unwritable("the inverse of \"\(relationship.name)\" belongs to no entity") }
            attributes += [("inverseName", inverse.name), ("inverseEntity", inverseEntity.entityName)]
        }
        attributes += trailingBasics(of: relationship)
        return XMLDocumentElement(name: "relationship", attributes: attributes, children: userInfo(relationship.userInfo))
    }

    private static func element(of fetched: NSFetchedPropertyDescription) throws -> XMLDocumentElement {
        guard let request = fetched.fetchRequest else { throw unwritable("the fetched property \"\(fetched.name)\" has no fetch request") }
        var attributes = try basics(of: fetched)
        attributes += trailingBasics(of: fetched)
        let requestElement = try element(of: request, named: "fetchedPropertyFetchRequest", at: "the fetched property \"\(fetched.name)\"")
        return XMLDocumentElement(name: "fetchedProperty", attributes: attributes, children: [requestElement] + userInfo(fetched.userInfo))
    }

    // MARK: Fetch requests

    private static func element(of request: NSFetchRequest<NSFetchRequestResult>, named name: String, at place: String) throws -> XMLDocumentElement {
        guard let entityName = request.entity?.name ?? request.entityName else { throw unwritable("\(place) has no entity") }
        guard request.sortDescriptors?.isEmpty ?? true, request.fetchOffset == 0, request.propertiesToFetch == nil, request.propertiesToGroupBy == nil,
              request.havingPredicate == nil, request.relationshipKeyPathsForPrefetching == nil else {
            throw unwritable("\(place) has settings (sort descriptors, offset, properties, prefetching) that a model file cannot state")
        }
        var attributes: [(String, String)] = [("name", name), ("entity", entityName)]
        attributes.append(optional: request.predicate?.predicateFormat, as: "predicateString")
        if request.fetchLimit != 0 { attributes.append(("fetchLimit", "\(request.fetchLimit)")) }
        if request.fetchBatchSize != 0 { attributes.append(("fetchBatchSize", "\(request.fetchBatchSize)")) }
        if request.resultType != .managedObjectResultType { attributes.append(("resultType", "\(request.resultType.rawValue)")) }
        if !request.includesSubentities { attributes.append(("includeSubentities", "NO")) }
        if !request.includesPropertyValues { attributes.append(("includePropertyValues", "NO")) }
        if !request.includesPendingChanges { attributes.append(("includesPendingChanges", "NO")) }
        if !request.returnsObjectsAsFaults { attributes.append(("returnObjectsAsFaults", "NO")) }
        if request.returnsDistinctResults { attributes.append(("returnDistinctResults", "YES")) }
        return XMLDocumentElement(name: "fetchRequest", attributes: attributes)
    }

    // MARK: Helpers

    private static func userInfo(_ info: [AnyHashable: Any]?) -> [XMLDocumentElement] {
        guard let info, !info.isEmpty else { return [] }
        let entries = info.map { ("\($0.key.base)", "\($0.value)") }.sorted { $0.0 < $1.0 }
            .map { XMLDocumentElement(name: "entry", attributes: [("key", $0.0), ("value", $0.1)]) }
        return [XMLDocumentElement(name: "userInfo", attributes: [], children: entries)]
    }

    private static func unwritable(_ message: String) -> ModelFileError {
        var error = ModelFileError(message)
        error.code = CocoaError.fileWriteUnknown.rawValue
        return error
    }
}

private extension Array where Element == (String, String) {
    mutating func append(optional value: String?, as name: String) {
        if let value { append((name, value)) }
    }
}
