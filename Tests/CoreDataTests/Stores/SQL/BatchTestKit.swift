@testable import CoreData
import Testing

/// The model of the batch request suites: items (with a sub-entity) on shelves, tagged with
/// tags (many-to-many), tags unique by name.
enum BatchModel {
    static func make() -> NSManagedObjectModel {
        let (item, special, shelf, tag) = (entity("Item"), entity("SpecialItem"), entity("Shelf"), entity("Tag"))

        let count = MovieModel.attribute("count", .integer64AttributeType, optional: false)
        count.defaultValue = 7
        let price = MovieModel.attribute("price", .doubleAttributeType)
        let itemTags = MovieModel.relationship("tags", to: tag, toMany: true, deleteRule: .nullifyDeleteRule)
        let tagItems = MovieModel.relationship("items", to: item, toMany: true, deleteRule: .nullifyDeleteRule)
        itemTags.inverseRelationship = tagItems
        tagItems.inverseRelationship = itemTags
        let itemShelf = MovieModel.relationship("shelf", to: shelf, toMany: false, deleteRule: .nullifyDeleteRule)
        let shelfItems = MovieModel.relationship("items", to: item, toMany: true, deleteRule: .nullifyDeleteRule)
        itemShelf.inverseRelationship = shelfItems
        shelfItems.inverseRelationship = itemShelf

        item.properties = [MovieModel.attribute("name", .stringAttributeType, optional: false), count, price, itemTags, itemShelf]
        special.properties = [MovieModel.attribute("level", .integer16AttributeType)]
        item.subentities = [special]
        shelf.properties = [MovieModel.attribute("label", .stringAttributeType), shelfItems]
        tag.properties = [MovieModel.attribute("name", .stringAttributeType, optional: false), MovieModel.attribute("note", .stringAttributeType), tagItems]
        tag.uniquenessConstraints = [["name"]]

        let model = NSManagedObjectModel()
        model.entities = [item, special, shelf, tag]
        return model
    }

    private static func entity(_ name: String) -> NSEntityDescription {
        let entity = NSEntityDescription()
        entity.name = name
        return entity
    }
}

/// A scratch directory with a SQLite stack on `BatchModel` (or another model).
struct BatchTestStore {
    let directory: SQLiteScratchDirectory
    let url: URL
    let stack: SQLiteTestStack

    init(_ label: String, model: NSManagedObjectModel = BatchModel.make()) throws {
        directory = try SQLiteScratchDirectory(label)
        url = directory.file("Batch.sqlite")
        stack = try SQLiteTestStack(model: model, url: url)
    }

    var context: NSManagedObjectContext { stack.context }

    func close() {
        stack.close()
        directory.remove()
    }

    /// Inserts objects of an entity with the given values, saved.
    @discardableResult
    func insert(_ entityName: String, _ values: [[String: Any]]) throws -> [NSManagedObjectID] {
        try context.performAndWait {
            let objects = values.map { values in
                let object = NSEntityDescription.insertNewObject(forEntityName: entityName, into: context)
                values.forEach { object.setValue($1, forKey: $0) }
                return object
            }
            try context.save()
            return objects.map(\.objectID)
        }
    }

    /// Runs a request through the context.
    func execute(_ request: NSPersistentStoreRequest) throws -> NSPersistentStoreResult {
        try context.performAndWait { try context.execute(request) }
    }

    /// A column of every row of a table, ordered by primary key, straight from the file.
    func column(_ column: String, of table: String, where condition: String = "1") throws -> [SQLValue] {
        try RawStoreSQL.rows(url, "SELECT \(column) FROM \(table) WHERE \(condition) ORDER BY rowid").map { $0[0] }
    }
}
