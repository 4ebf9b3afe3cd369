import CoreData

/// Writes the Swift source of a model's managed object subclasses, as Xcode's code generation
/// does, adapted to Linux.
///
/// Apple has no such type: it is the package's own, for `coredata generate`, which the
/// `CoreDataCodegen` build-tool plugin runs, and not part of the `CoreData` library. Each
/// entity's code generation type, read from its model file, chooses what is written:
///
/// - "Class Definition" (`codeGenerationType="class"`): `<Class>+CoreDataClass.swift`, declaring
///   the class, and `<Class>+CoreDataProperties.swift`, declaring its properties;
/// - "Category/Extension" (`"category"`): only `<Class>+CoreDataProperties.swift`, for a class
///   you declare;
/// - "Manual/None" (no type, as in models built in code): nothing.
///
/// The properties extension has Xcode's `fetchRequest()` returning `NSFetchRequest<Class>`, a
/// property for each attribute and relationship, and Xcode's accessors for to-many
/// relationships (`addToCast(_:)`, `removeFromCast(_:)`, their `NSSet` forms, and for ordered
/// relationships the indexed forms). Where Xcode declares `@NSManaged` properties, which need the
/// Objective-C runtime, the generated accessors read and write the object's storage by property
/// index with `value(atPropertyIndex:named:)`. Object types are optional and scalar types
/// (`usesScalarValueType`) are not, as Xcode generates them. A generated class also lists its
/// properties in `propertyNamesByKeyPath`, so that `NSSortDescriptor(keyPath:ascending:)` reads
/// key paths without probing. The root class of each generated hierarchy (a class whose entity
/// has no parent) conforms to `Identifiable`; a class whose parent is hand-written inherits
/// whatever conformance its parent declares, since declaring it twice does not compile.
///
/// `writeSourceFiles(to:)` writes the current files and removes none: delete the files of an
/// entity you rename or remove.
///
/// ```swift
/// let model = try NSManagedObjectModel(validatingContentsOf: modelURL)
/// let written = try ManagedObjectCodeGenerator(model: model).writeSourceFiles(to: directory)
/// ```
package struct ManagedObjectCodeGenerator {
    /// One generated Swift file.
    package struct SourceFile: Equatable, Sendable {
        /// The file's name, such as `Movie+CoreDataProperties.swift`.
        package let name: String
        /// The file's Swift source.
        package let contents: String

        /// Writes the file at a URL, unless it already holds these contents (so that a build
        /// does not recompile what did not change).
        ///
        /// - Throws: The file system's error when the file cannot be written.
        package func write(to url: URL) throws {
            if let existing = try? String(contentsOf: url, encoding: .utf8), existing == contents { return }
            try contents.write(to: url, atomically: true, encoding: .utf8)
        }
    }

    /// The model whose classes are generated.
    package let model: NSManagedObjectModel

    /// Creates a generator for a model, usually one read from a model file (models built in code
    /// set no code generation type, so nothing is generated for them).
    package init(model: NSManagedObjectModel) {
        self.model = model
    }

    /// The generated files, one or two per entity as Xcode writes them, by entity name.
    ///
    /// - Throws: An `NSError` in `NSCocoaErrorDomain` (`NSCoreDataError`) naming the entity or
    ///   property when the model cannot be generated: an entity without a class name, names
    ///   that are not Swift identifiers or that `NSManagedObject` already uses, or two entities
    ///   with the same class.
    package func sourceFiles() throws -> [SourceFile] {
        try generatedEntities().flatMap { entity -> [SourceFile] in
            var files: [SourceFile] = []
            if entity.codeGeneration == .classDefinition {
                files.append(Self.file(named: "\(entity.className)+CoreDataClass.swift", sections: [entity.classDeclaration]))
            }
            files.append(Self.file(named: "\(entity.className)+CoreDataProperties.swift", sections: [entity.propertiesExtension]))
            return files
        }
    }

    /// All the generated code in one file, as the build-tool plugin writes it.
    ///
    /// - Parameter name: The file's name, which its header states.
    /// - Throws: The errors of `sourceFiles()`.
    package func sourceFile(named name: String) throws -> SourceFile {
        let sections = try generatedEntities().flatMap { entity in
            entity.codeGeneration == .classDefinition ? [entity.classDeclaration, entity.propertiesExtension] : [entity.propertiesExtension]
        }
        return Self.file(named: name, sections: sections)
    }

    /// Writes the files of `sourceFiles()` into a directory, creating it if needed, and returns
    /// their URLs. A file whose contents are already those generated is left untouched.
    ///
    /// - Throws: The errors of `sourceFiles()`, and the file system's errors.
    @discardableResult
    package func writeSourceFiles(to directory: URL) throws -> [URL] {
        let files = try sourceFiles()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try files.map { file in
            let url = directory.appendingPathComponent(file.name)
            try file.write(to: url)
            return url
        }
    }

    private func generatedEntities() throws -> [GeneratedEntity] {
        let entities = try model.entities.sorted { $0.entityName < $1.entityName }.compactMap(GeneratedEntity.init)
        var entityByClass: [String: String] = [:]
        for entity in entities {
            if let other = entityByClass.updateValue(entity.entityName, forKey: entity.className) {
                throw GeneratedEntity.error("The entities \(other) and \(entity.entityName) both generate the class \(entity.className).")
            }
        }
        return entities
    }

    private static func file(named name: String, sections: [[String]]) -> SourceFile {
        let header = [
            "//",
            "//  \(name)",
            "//",
            "//  This file was automatically generated by `coredata generate` and should not be edited.",
            "//",
            "",
            "import CoreData",
        ]
        let body = sections.flatMap { [""] + $0 }
        return SourceFile(name: name, contents: (header + body).joined(separator: "\n") + "\n")
    }
}
