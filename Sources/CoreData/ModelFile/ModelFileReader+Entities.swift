// Entities: their declaration, inheritance, properties, indexes and uniqueness constraints.
extension ModelFileReader {
    /// An entity with the attributes of its `<entity>` element; its properties come later, once
    /// every entity exists for relationships to point to.
    mutating func declareEntity(_ element: XMLDocumentElement) throws -> NSEntityDescription {
        try Self.checkChildren(of: element, among: ["attribute", "relationship", "fetchedProperty", "fetchIndex", "compoundIndexes", "uniquenessConstraints", "userInfo"])
        let entity = NSEntityDescription()
        let name = try Self.required("name", of: element)
        guard entitiesByName.updateValue(entity, forKey: name) == nil else { throw ModelFileError("a second entity is named \"\(name)\"", at: element) }
        entity.name = name
        entity.managedObjectClassName = element["representedClassName"] ?? "NSManagedObject"
        entity.isAbstract = try Self.flag("isAbstract", of: element) ?? false
        entity.versionHashModifier = element["versionHashModifier"]
        entity.renamingIdentifier = element["elementID"]
        entity.userInfo = try Self.userInfo(of: element)
        if let generation = element["codeGenerationType"] {
            guard let type = CodeGenerationType(rawValue: generation) else {
                throw ModelFileError("'codeGenerationType' is \"\(generation)\", not class or category", at: element)
            }
            entity.codeGenerationType = type
        }
        return entity
    }

    /// The deepest inheritance a model file may declare; deeper chains are refused before
    /// anything walks them recursively.
    static let maximumInheritanceDepth = 64

    /// Makes each entity a sub-entity of its `parentEntity`, refusing cycles and chains deeper
    /// than `maximumInheritanceDepth`.
    func setParents(of entities: [NSEntityDescription], from elements: [XMLDocumentElement]) throws {
        var parents: [ObjectIdentifier: NSEntityDescription] = [:]
        var children: [ObjectIdentifier: [NSEntityDescription]] = [:]
        for (entity, element) in zip(entities, elements) {
            guard let parentName = element["parentEntity"] else { continue }
            let parent = try self.entity(named: parentName, at: element)
            parents[ObjectIdentifier(entity)] = parent
            children[ObjectIdentifier(parent), default: []].append(entity)
        }
        for (entity, element) in zip(entities, elements) {
            var ancestor = parents[ObjectIdentifier(entity)]
            var depth = 0
            while let current = ancestor {
                guard current !== entity else { throw ModelFileError("the entity inherits from itself through \"\(element["parentEntity"] ?? "")\"", at: element) }
                depth += 1
                guard depth <= Self.maximumInheritanceDepth else { throw ModelFileError("the entity inherits through more than \(Self.maximumInheritanceDepth) entities", at: element) }
                ancestor = parents[ObjectIdentifier(current)]
            }
        }
        for parent in entities {
            if let subentities = children[ObjectIdentifier(parent)] { parent.subentities = subentities }
        }
    }

    /// The attributes, relationships and fetched properties of an entity.
    mutating func readProperties(of entity: NSEntityDescription, from element: XMLDocumentElement) throws {
        var properties: [NSPropertyDescription] = []
        var names = Set<String>()
        for child in element.children {
            let property: NSPropertyDescription
            switch child.name {
            case "attribute": property = try attribute(from: child)
            case "relationship": property = try relationship(from: child)
            case "fetchedProperty": property = try fetchedProperty(from: child)
            default: continue
            }
            guard names.insert(property.name).inserted else {
                throw ModelFileError("a second property of \(entity.name ?? "") is named \"\(property.name)\"", at: child)
            }
            properties.append(property)
        }
        entity.properties = properties
    }

    /// The settings every kind of property shares.
    static func readPropertyBasics(of property: NSPropertyDescription, from element: XMLDocumentElement) throws {
        property.name = try required("name", of: element)
        property.isOptional = try flag("optional", of: element) ?? false
        property.isTransient = try flag("transient", of: element) ?? false
        property.isIndexed = try flag("indexed", of: element) ?? false
        property.isIndexedBySpotlight = try flag("spotlightIndexingEnabled", of: element) ?? false
        property.isStoredInExternalRecord = try flag("storedInTruthFile", of: element) ?? false
        property.versionHashModifier = element["versionHashModifier"]
        property.renamingIdentifier = element["elementID"] ?? element["renamingIdentifier"]
        property.userInfo = try userInfo(of: element)
    }

    // MARK: Indexes and constraints

    /// `<fetchIndex>`, legacy `<compoundIndexes>` and `<uniquenessConstraints>`.
    func readIndexesAndConstraints(of entity: NSEntityDescription, from element: XMLDocumentElement) throws {
        let properties = entity.propertiesByName
        var indexes: [NSFetchIndexDescription] = []
        for index in element.children(named: "fetchIndex") {
            try Self.checkChildren(of: index, among: ["fetchIndexElement"])
            let elements = try index.children.map { try fetchIndexElement(from: $0, of: entity, properties: properties) }
            guard !elements.isEmpty else { throw ModelFileError("a fetch index needs at least one <fetchIndexElement>", at: index) }
            guard Set(elements.map(\.collationType)).count == 1 else { throw ModelFileError("a fetch index cannot mix Binary and R-Tree elements", at: index) }
            indexes.append(NSFetchIndexDescription(name: try Self.required("name", of: index), elements: elements))
        }
        // A legacy compound index becomes the fetch index Core Data makes of it, named after its
        // properties (its SQLite index is `Z_<Entity>_<p1>_<p2>`).
        for compound in try groups(in: element, container: "compoundIndexes", group: "compoundIndex", item: "index") {
            let indexed = try compound.names.map { try property(named: $0, of: entity, in: properties, at: compound.element) }
            indexes.append(NSFetchIndexDescription.compoundIndex(of: indexed))
        }
        entity.indexes = indexes
        entity.uniquenessConstraints = try groups(in: element, container: "uniquenessConstraints", group: "uniquenessConstraint", item: "constraint").map { constraint in
            try constraint.names.forEach { _ = try property(named: $0, of: entity, in: properties, at: constraint.element) }
            return constraint.names
        }
    }

    /// The `value`s of `<container><group><item value=…/>…</group>…</container>`.
    private func groups(in element: XMLDocumentElement, container: String, group: String, item: String) throws -> [(names: [String], element: XMLDocumentElement)] {
        try element.children(named: container).flatMap { list in
            try Self.checkChildren(of: list, among: [group])
            return try list.children.map { member in
                try Self.checkChildren(of: member, among: [item])
                return (try member.children.map { try Self.required("value", of: $0) }, member)
            }
        }
    }

    private func fetchIndexElement(from element: XMLDocumentElement, of entity: NSEntityDescription, properties: [String: NSPropertyDescription]) throws -> NSFetchIndexElementDescription {
        let collation: NSFetchIndexElementType
        switch (element["type"] ?? "Binary").lowercased().replacingOccurrences(of: "-", with: "") {
        case "binary": collation = .binary
        case "rtree": collation = .rTree
        default: throw ModelFileError("'type' is \"\(element["type"] ?? "")\", not Binary or R-Tree", at: element)
        }
        let indexed: NSPropertyDescription
        if let name = element["property"] {
            indexed = try property(named: name, of: entity, in: properties, at: element)
        } else {
            let description = NSExpressionDescription()
            let expression = try Self.expression("expression", of: element)
            // Named by the expression's canonical text, which is what a model file is written with.
            description.name = expression.description
            description.expression = expression
            description.expressionResultType = try Self.attributeType(named: element["expressionType"] ?? "Undefined", at: element)
            indexed = description
        }
        let description = NSFetchIndexElementDescription(property: indexed, collationType: collation)
        switch element["order"] ?? "ascending" {
        case "ascending": description.isAscending = true
        case "descending": description.isAscending = false
        case let order: throw ModelFileError("'order' is \"\(order)\", not ascending or descending", at: element)
        }
        return description
    }

    /// A property of the entity (inherited ones included) that an index or constraint names.
    private func property(named name: String, of entity: NSEntityDescription, in properties: [String: NSPropertyDescription], at element: XMLDocumentElement) throws -> NSPropertyDescription {
        guard let property = properties[name] else { throw ModelFileError("\(entity.name ?? "") has no property named \"\(name)\"", at: element) }
        return property
    }
}
