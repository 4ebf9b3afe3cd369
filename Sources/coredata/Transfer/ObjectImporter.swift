import CoreData

/// The two passes of `coredata import` on one context: objects and their attributes first,
/// then relationships, saving and letting go of each page of objects.
struct ObjectImporter {
    let context: NSManagedObjectContext
    /// The new object of each exported URI.
    private var objectIDs: [String: NSManagedObjectID] = [:]
    /// The objects inserted and not saved yet, by exported URI.
    private var unsaved: [(uri: String, object: NSManagedObject)] = []
    private var changedSinceSave = 0
    private(set) var importedCount = 0

    init(context: NSManagedObjectContext) {
        self.context = context
    }

    /// Inserts the objects of an entity file with their attributes, and their to-one
    /// relationships whose destinations are imported already.
    mutating func insertObjects(of entity: NSEntityDescription, from url: URL, progress: Progress) throws {
        let start = progress.completedUnitCount
        try EntityFile.forEachObject(in: url, progress: { progress.completedUnitCount = start + Int64($0) }) { line, json in
            guard let uri = json["objectID"] as? String else {
                throw CommandFailure.report("\(url.lastPathComponent) line \(line) has no objectID.")
            }
            try context.performAndWait {
                let object = NSManagedObject(entity: entity, insertInto: context)
                for (name, attribute) in entity.attributesByName where !attribute.isTransient {
                    guard let value = json[name] else { continue }
                    do {
                        object.setValue(try AttributeJSON.value(value, for: attribute), forKey: name)
                    } catch let mismatch as AttributeJSON.Mismatch {
                        throw CommandFailure.report("\(url.lastPathComponent) line \(line): \(mismatch.value) is no value of the \(Self.typeName(attribute)) attribute \(mismatch.attribute).")
                    }
                }
                for (name, relationship) in entity.relationshipsByName where !relationship.isToMany {
                    if let destination = (json[name] as? String).flatMap({ objectIDs[$0] }) {
                        object.setValue(context.object(with: destination), forKey: name)
                    }
                }
                unsaved.append((uri, object))
            }
            importedCount += 1
            try saveIfPageIsFull()
        }
        try save()
    }

    /// Sets the relationships of an entity file's objects that the first pass did not: to-one
    /// relationships to objects imported later, and to-many relationships that no to-one inverse
    /// sets (one side of a many-to-many pair; both sides of an ordered one keep its order).
    mutating func setRelationships(of entity: NSEntityDescription, from url: URL, progress: Progress) throws {
        let relationships = entity.relationshipsByName.filter { Self.isSetInSecondPass($0.value) }
        let start = progress.completedUnitCount
        try EntityFile.forEachObject(in: url, progress: { progress.completedUnitCount = start + Int64($0) }) { line, json in
            guard !relationships.isEmpty, let uri = json["objectID"] as? String, let objectID = objectIDs[uri] else { return }
            try context.performAndWait {
                let object = context.object(with: objectID)
                for (name, relationship) in relationships {
                    try set(relationship, named: name, of: object, from: json[name], line: line, file: url)
                }
            }
            changedSinceSave += 1
            try saveIfPageIsFull()
        }
        try save()
    }

    private func set(_ relationship: NSRelationshipDescription, named name: String, of object: NSManagedObject, from json: Any?, line: Int, file: URL) throws {
        func destination(_ uri: String) throws -> NSManagedObject {
            guard let objectID = objectIDs[uri] else {
                throw CommandFailure.report("\(file.lastPathComponent) line \(line): \(name) names \(uri), which no file of the import holds.")
            }
            return context.object(with: objectID)
        }
        if relationship.isToMany {
            let destinations = try ((json as? [String]) ?? []).map(destination)
            object.setValue(relationship.isOrdered ? NSOrderedSet(array: destinations) : NSSet(array: destinations), forKey: name)
        } else if let uri = json as? String, object.value(forKey: name) == nil {
            object.setValue(try destination(uri), forKey: name)
        }
    }

    private static func isSetInSecondPass(_ relationship: NSRelationshipDescription) -> Bool {
        guard relationship.isToMany, let inverse = relationship.inverseRelationship else { return true }
        if relationship.isOrdered { return true }
        guard inverse.isToMany else { return false }
        // One side of a many-to-many pair sets both.
        return (relationship.entity.name ?? "", relationship.name) < (inverse.entity.name ?? "", inverse.name) || inverse.isOrdered
    }

    private mutating func saveIfPageIsFull() throws {
        if unsaved.count + changedSinceSave >= Export.pageSize { try save() }
    }

    /// Saves the page, records the new objects' IDs by exported URI, and lets the page go.
    private mutating func save() throws {
        let page = unsaved
        let ids = try context.performAndWait {
            try context.save()
            let ids = page.map { ($0.uri, $0.object.objectID) }
            context.reset()
            return ids
        }
        for (uri, objectID) in ids { objectIDs[uri] = objectID }
        unsaved = []
        changedSinceSave = 0
    }

    private static func typeName(_ attribute: NSAttributeDescription) -> String {
        MigrationPlanPrinter.typeName(attribute.attributeType)
    }
}
