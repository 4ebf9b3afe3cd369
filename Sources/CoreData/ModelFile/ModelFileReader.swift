/// Builds a managed object model from the `contents` XML Xcode's model editor writes
/// (`../shared/spec/store-format.md`, part 1).
///
/// Every element and attribute of the format is read; informational ones (Xcode's version, the
/// diagram's layout) are skipped. An unknown element, a missing or malformed value, or a name
/// that refers to nothing is an error naming the element and its line. Unknown attributes of
/// known elements are skipped, since Xcode adds informational ones from release to release.
struct ModelFileReader {
    /// The entities of the model, by name, as they are declared.
    var entitiesByName: [String: NSEntityDescription] = [:]
    /// The `<composite>` declarations of the model, by name.
    var compositesByName: [String: XMLDocumentElement] = [:]

    /// Fills an empty model with the model of a `contents` file.
    static func read(contentsOf url: URL, into model: NSManagedObjectModel) throws {
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: url))
        } catch {
            throw ModelFileError.missing(url, "the model file cannot be read")
        }
        do {
            try read(bytes, into: model)
        } catch let error as ModelFileError {
            throw error.inFile(url)
        }
    }

    /// Fills an empty model with the model of a `contents` document.
    static func read(_ bytes: [UInt8], into model: NSManagedObjectModel) throws {
        let root: XMLDocumentElement
        do {
            root = try XMLDocumentParser.parse(bytes)
        } catch {
            var failure = ModelFileError("malformed XML: \(error.message)")
            failure.line = error.line
            throw failure
        }
        var reader = ModelFileReader()
        try reader.read(root, into: model)
    }

    private mutating func read(_ root: XMLDocumentElement, into model: NSManagedObjectModel) throws {
        guard root.name == "model" else { throw ModelFileError("the root element is not <model>: this is not a Core Data model file", at: root) }
        if let type = root["type"], type != "com.apple.IDECoreDataModeler.DataModel" {
            throw ModelFileError("the model type \"\(type)\" is not com.apple.IDECoreDataModeler.DataModel", at: root)
        }
        try Self.checkChildren(of: root, among: ["entity", "fetchRequest", "configuration", "composite", "elements"])
        for composite in root.children(named: "composite") {
            let name = try Self.required("name", of: composite)
            guard compositesByName.updateValue(composite, forKey: name) == nil else { throw ModelFileError("a second composite is named \"\(name)\"", at: composite) }
        }
        try checkCompositeSizes()
        let entityElements = root.children(named: "entity")
        let entities = try entityElements.map { try declareEntity($0) }
        try setParents(of: entities, from: entityElements)
        try zip(entities, entityElements).forEach { try readProperties(of: $0, from: $1) }
        try zip(entities, entityElements).forEach { try connectInverses(of: $0, from: $1) }
        try zip(entities, entityElements).forEach { try readIndexesAndConstraints(of: $0, from: $1) }

        model.entities = entities
        if let identifier = root["userDefinedModelVersionIdentifier"] { model.versionIdentifiers = [identifier] }
        for element in root.children(named: "fetchRequest") {
            let name = try Self.required("name", of: element)
            guard model.fetchRequestTemplate(forName: name) == nil else { throw ModelFileError("a second fetch request is named \"\(name)\"", at: element) }
            model.setFetchRequestTemplate(try fetchRequest(from: element), forName: name)
        }
        for element in root.children(named: "configuration") {
            try readConfiguration(element, into: model)
        }
    }

    private func readConfiguration(_ element: XMLDocumentElement, into model: NSManagedObjectModel) throws {
        let name = try Self.required("name", of: element)
        // Xcode writes the implicit configuration only to carry settings such as usedWithCloudKit.
        if name == "Default" && element.children.isEmpty { return }
        guard !model.configurations.contains(name) else { throw ModelFileError("a second configuration is named \"\(name)\"", at: element) }
        try Self.checkChildren(of: element, among: ["memberEntity"])
        let members = try element.children(named: "memberEntity").map { try entity(named: Self.required("name", of: $0), at: $0) }
        model.setEntities(members, forConfigurationName: name)
    }

    /// The entity of a name the file refers to.
    func entity(named name: String, at element: XMLDocumentElement) throws -> NSEntityDescription {
        guard let entity = entitiesByName[name] else { throw ModelFileError("no entity is named \"\(name)\"", at: element) }
        return entity
    }

    // MARK: Values

    /// The value of an attribute the element must have, not empty.
    static func required(_ attribute: String, of element: XMLDocumentElement) throws -> String {
        guard let value = element[attribute], !value.isEmpty else { throw ModelFileError("the '\(attribute)' attribute is missing", at: element) }
        return value
    }

    /// A `YES`/`NO` attribute; nil when absent.
    static func flag(_ attribute: String, of element: XMLDocumentElement) throws -> Bool? {
        guard let value = element[attribute] else { return nil }
        guard let flag = yesOrNo(value) else { throw ModelFileError("'\(attribute)' is \"\(value)\", not YES or NO", at: element) }
        return flag
    }

    /// `YES` or `NO`, in the spellings model files use; nil for anything else.
    static func yesOrNo(_ value: String) -> Bool? {
        switch value {
        case "YES", "yes", "true": true
        case "NO", "no", "false": false
        default: nil
        }
    }

    /// A non-negative integer attribute; nil when absent.
    static func integer(_ attribute: String, of element: XMLDocumentElement) throws -> Int? {
        guard let value = element[attribute] else { return nil }
        guard let integer = Int(value), integer >= 0 else { throw ModelFileError("'\(attribute)' is \"\(value)\", not a count", at: element) }
        return integer
    }

    /// A number attribute; nil when absent.
    static func double(_ attribute: String, of element: XMLDocumentElement) throws -> Double? {
        guard let value = element[attribute] else { return nil }
        guard let double = Double(value), double.isFinite else { throw ModelFileError("'\(attribute)' is \"\(value)\", not a finite number", at: element) }
        return double
    }

    /// Fails for a child element that is not one of `names`.
    static func checkChildren(of element: XMLDocumentElement, among names: Set<String>) throws {
        if let unknown = element.children.first(where: { !names.contains($0.name) }) {
            throw ModelFileError("unknown element in \(element.tag)", at: unknown)
        }
    }

    /// The `<userInfo>` entries of an element, as strings.
    static func userInfo(of element: XMLDocumentElement) throws -> [AnyHashable: Any] {
        var info: [AnyHashable: Any] = [:]
        for userInfo in element.children(named: "userInfo") {
            try checkChildren(of: userInfo, among: ["entry"])
            for entry in userInfo.children {
                info[try required("key", of: entry)] = entry["value"] ?? ""
            }
        }
        return info
    }

    /// A predicate string of the file, parsed.
    static func predicate(_ attribute: String, of element: XMLDocumentElement) throws -> NSPredicate? {
        guard let format = element[attribute] else { return nil }
        do {
            return try NSPredicate(validatingFormat: format, argumentArray: [])
        } catch {
            throw ModelFileError("'\(attribute)' is not a predicate: \(error.localizedDescription)", at: element)
        }
    }

    /// An expression string of the file, parsed.
    static func expression(_ attribute: String, of element: XMLDocumentElement) throws -> NSExpression {
        let format = try required(attribute, of: element)
        switch PredicateParser.parseExpression(format, arguments: []) {
        case .success(let node): return NSExpression(node: node)
        case .failure(let error): throw ModelFileError("'\(attribute)' is not an expression: \(error.localizedDescription)", at: element)
        }
    }
}
