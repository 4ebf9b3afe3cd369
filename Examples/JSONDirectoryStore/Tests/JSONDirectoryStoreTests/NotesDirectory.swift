import CoreData
import JSONDirectoryStore

/// A directory of notes in folders, opened through `NSPersistentContainer` as a JSON directory
/// store; the directory is removed when the value is released.
final class NotesDirectory {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("JSONDirectoryStoreTests-\(UUID().uuidString)")

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A container whose one store is the directory, loaded.
    func openContainer(model: NSManagedObjectModel = NotesDirectory.model()) throws -> NSPersistentContainer {
        JSONDirectoryStore.register()
        let container = NSPersistentContainer(name: "Notes", managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: url)
        description.type = JSONDirectoryStore.storeType.rawValue
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }

    /// Folder (name, notes) and Note (title, words, pinned, created, folder); deleting a folder
    /// deletes its notes.
    static func model() -> NSManagedObjectModel {
        let folder = NSEntityDescription()
        folder.name = "Folder"
        let note = NSEntityDescription()
        note.name = "Note"
        let notes = relationship("notes", to: note, maxCount: 0, deleteRule: .cascadeDeleteRule)
        let inFolder = relationship("folder", to: folder, maxCount: 1, deleteRule: .nullifyDeleteRule)
        (notes.inverseRelationship, inFolder.inverseRelationship) = (inFolder, notes)
        folder.properties = [attribute("name", .stringAttributeType), notes]
        note.properties = [attribute("title", .stringAttributeType), attribute("words", .integer32AttributeType),
                           attribute("pinned", .booleanAttributeType), attribute("created", .dateAttributeType), inFolder]
        let model = NSManagedObjectModel()
        model.entities = [folder, note]
        return model
    }

    private static func attribute(_ name: String, _ type: NSAttributeType) -> NSAttributeDescription {
        let attribute = NSAttributeDescription()
        (attribute.name, attribute.attributeType) = (name, type)
        return attribute
    }

    /// A relationship: to-one for a `maxCount` of 1, to-many for 0.
    private static func relationship(_ name: String, to destination: NSEntityDescription, maxCount: Int, deleteRule: NSDeleteRule) -> NSRelationshipDescription {
        let relationship = NSRelationshipDescription()
        (relationship.name, relationship.destinationEntity) = (name, destination)
        (relationship.maxCount, relationship.deleteRule) = (maxCount, deleteRule)
        return relationship
    }
}

extension NSManagedObjectContext {
    /// Inserts a folder.
    func insertFolder(_ name: String) -> NSManagedObject {
        let folder = NSEntityDescription.insertNewObject(forEntityName: "Folder", into: self)
        folder.setValue(name, forKey: "name")
        return folder
    }

    /// Inserts a note in a folder.
    @discardableResult
    func insertNote(_ title: String, words: Int, pinned: Bool = false, in folder: NSManagedObject?) -> NSManagedObject {
        let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: self)
        note.setValue(title, forKey: "title")
        note.setValue(words, forKey: "words")
        note.setValue(pinned, forKey: "pinned")
        note.setValue(Date(timeIntervalSince1970: 1_700_000_000), forKey: "created")
        note.setValue(folder, forKey: "folder")
        return note
    }

    /// The objects of an entity matching a predicate, in an order.
    func objects(_ entityName: String, where format: String? = nil, sortedBy key: String? = nil) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: entityName)
        request.predicate = format.map { NSPredicate(format: $0) }
        request.sortDescriptors = key.map { [NSSortDescriptor(key: $0, ascending: true)] }
        return try fetch(request)
    }
}
