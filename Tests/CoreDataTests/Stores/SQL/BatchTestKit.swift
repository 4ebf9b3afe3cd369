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

/// A stack on `BatchModel` (or another model) in a relational store: SQLite in a scratch
/// directory, or PostgreSQL in a schema of its own (`CtxStack`). Its raw checks read through the
/// store's own connection, so that they see what a batch request wrote whichever database holds it.
struct BatchTestStore {
    let stack: CtxStack

    init(_ storeType: String, model: NSManagedObjectModel = BatchModel.make()) throws {
        stack = try CtxStack(model: model, storeType: storeType)
    }

    var storeType: String { stack.storeType }
    var context: NSManagedObjectContext { stack.context }

    func close() {
        for store in stack.coordinator.persistentStores {
            try? stack.coordinator.remove(store)
        }
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

    /// A column of the rows of a table that match a condition, in `order` (primary-key order
    /// unless told). Unquoted names read the same in both databases: PostgreSQL folds them to the
    /// lower case its tables are named in.
    func column(_ column: String, of table: String, where condition: String = "1 = 1", orderedBy order: String = "Z_PK") throws -> [SQLValue] {
        try withDatabase { database, _ in try Self.firstColumn(of: "SELECT \(column) FROM \(table) WHERE \(condition) ORDER BY \(order)", in: database) }
    }

    /// How many rows a table holds.
    func rowCount(of table: String) throws -> Int64? {
        try withDatabase { database, _ in try Self.firstColumn(of: "SELECT COUNT(*) FROM \(table)", in: database) }.first?.integer
    }

    /// The highest primary key handed out for an entity's inheritance root (`Z_PRIMARYKEY`).
    func primaryKeyMaximum(of entityName: String) throws -> Int64? {
        try column("Z_MAX", of: "Z_PRIMARYKEY", where: "Z_NAME = '\(entityName)'", orderedBy: "Z_ENT").first?.integer
    }

    /// The join table of a many-to-many relationship, as the store's layout names it.
    func joinTable(of entityName: String, _ relationshipName: String) throws -> String? {
        let relationship = try #require(stack.coordinator.managedObjectModel.entitiesByName[entityName]?.relationshipsByName[relationshipName])
        return try withDatabase { _, schema in schema.joinTable(for: relationship)?.name }
    }

    /// Runs `body` with the store's writing connection and its layout, while the coordinator
    /// lets nothing else use the store.
    private func withDatabase<Result>(_ body: (any SQLDatabase, SQLSchema) throws -> Result) throws -> Result {
        let store = try #require(stack.store as? any RelationalStore)
        return try stack.coordinator.withStores { _ in
            let (database, schema) = try Self.writingDatabase(of: store)
            return try body(database, schema)
        }
    }

    /// Opens the store's existential, whose connection type is the store's own.
    private static func writingDatabase(of store: some RelationalStore) throws -> (any SQLDatabase, SQLSchema) {
        try store.writingDatabase()
    }

    /// The first column of every row `sql` returns.
    private static func firstColumn(of sql: String, in database: some SQLDatabase) throws -> [SQLValue] {
        let statement = try database.statement(sql)
        // A statement left on a row would hold SQLite's read lock past the check.
        defer { statement.reset() }
        var values: [SQLValue] = []
        while try statement.step() {
            values.append(statement.value(at: 0))
        }
        return values
    }
}
