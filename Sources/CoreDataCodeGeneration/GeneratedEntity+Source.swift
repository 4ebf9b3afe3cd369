// The Swift source of a generated entity, in the shape of Xcode's `+CoreDataClass.swift` and
// `+CoreDataProperties.swift` files, with `@NSManaged` properties spelled out as accessors.
extension GeneratedEntity {
    /// The class declaration, for "Class Definition" generation. It overrides
    /// `propertyNamesByKeyPath` so that sort descriptors made from key paths need no probing.
    var classDeclaration: [String] {
        var lines = ["public class \(className): \(superclassName) {"]
        if !keyPathProperties.isEmpty {
            lines += ["    public override class var propertyNamesByKeyPath: [AnyKeyPath: String] {", "        ["]
            lines += keyPathProperties.map { "            \\\(className).\($0.identifier): \(SwiftName.literal($0.name))," }
            lines += ["        ]", "    }"]
        }
        lines.append("}")
        return lines
    }

    /// The extension declaring `fetchRequest()`, the properties, the to-many accessors and, for
    /// the root of a hierarchy, `Identifiable`.
    var propertiesExtension: [String] {
        var lines = [
            "extension \(className) {",
            "",
            "    @nonobjc public class func fetchRequest() -> NSFetchRequest<\(className)> {",
            "        NSFetchRequest<\(className)>(entityName: \(SwiftName.literal(entityName)))",
            "    }",
        ]
        for property in properties {
            lines += [""] + declaration(of: property)
        }
        lines.append("}")
        for property in properties {
            guard let toMany = property.toMany else { continue }
            lines += ["", "// MARK: Generated accessors for \(property.name)", "extension \(className) {"]
            lines += toMany.isOrdered
                ? orderedAccessors(of: property, destination: toMany.destinationClass)
                : setAccessors(of: property, destination: toMany.destinationClass)
            lines.append("}")
        }
        if isRoot {
            lines += ["", "extension \(className): Identifiable {}"]
        }
        return lines
    }

    private func declaration(of property: GeneratedProperty) -> [String] {
        [
            "    public var \(property.identifier): \(property.type.declaration) {",
            "        get { \(property.type.read(at: property.location)) }",
            "        set { \(property.type.write(at: property.location)) }",
            "    }",
        ]
    }

    private func setAccessors(of property: GeneratedProperty, destination: String) -> [String] {
        let name = SwiftName.capitalized(property.name)
        let set = "mutableSetValue(\(property.location))"
        return method("addTo\(name)(_ value: \(destination))", ["\(set).add(value)"])
            + method("removeFrom\(name)(_ value: \(destination))", ["\(set).remove(value)"])
            + method("addTo\(name)(_ values: NSSet)", ["\(set).addObjects(from: values.allObjects)"])
            + method("removeFrom\(name)(_ values: NSSet)", ["let set = \(set)", "for value in values { set.remove(value) }"])
    }

    private func orderedAccessors(of property: GeneratedProperty, destination: String) -> [String] {
        let name = SwiftName.capitalized(property.name)
        let set = "mutableOrderedSetValue(\(property.location))"
        return method("insertInto\(name)(_ value: \(destination), at idx: Int)", ["\(set).insert(value, at: idx)"])
            + method("removeFrom\(name)(at idx: Int)", ["\(set).removeObject(at: idx)"])
            + method("insertInto\(name)(_ values: [\(destination)], at indexes: NSIndexSet)", ["let set = \(set)", "for (value, index) in zip(values, indexes) { set.insert(value, at: index) }"])
            + method("removeFrom\(name)(at indexes: NSIndexSet)", ["let set = \(set)", "for index in indexes.reversed() { set.removeObject(at: index) }"])
            + method("replace\(name)(at idx: Int, with value: \(destination))", ["\(set).replaceObject(at: idx, with: value)"])
            + method("replace\(name)(at indexes: NSIndexSet, with values: [\(destination)])", ["let set = \(set)", "for (index, value) in zip(indexes, values) { set.replaceObject(at: index, with: value) }"])
            + method("addTo\(name)(_ value: \(destination))", ["\(set).add(value)"])
            + method("removeFrom\(name)(_ value: \(destination))", ["\(set).remove(value)"])
            + method("addTo\(name)(_ values: NSOrderedSet)", ["let set = \(set)", "for value in values.array { set.add(value) }"])
            + method("removeFrom\(name)(_ values: NSOrderedSet)", ["let set = \(set)", "for value in values.array { set.remove(value) }"])
    }

    private func method(_ signature: String, _ body: [String]) -> [String] {
        ["", "    public func \(signature) {"] + body.map { "        " + $0 } + ["    }"]
    }
}
