import CoreData

/// Authors, books and shelves: attributes of every kind, a one-to-many relationship with its
/// inverse, and a many-to-many one.
enum LibraryModel {
    static func make() -> NSManagedObjectModel {
        let author = entity("Author", [
            attribute("name", .stringAttributeType, optional: false),
            attribute("born", .dateAttributeType),
        ])
        let book = entity("Book", [
            attribute("title", .stringAttributeType, optional: false),
            attribute("pages", .integer32AttributeType),
            attribute("price", .doubleAttributeType),
            attribute("isAvailable", .booleanAttributeType),
            attribute("identifier", .UUIDAttributeType),
            attribute("cover", .binaryDataAttributeType),
        ])
        let shelf = entity("Shelf", [attribute("label", .stringAttributeType)])
        let books = relationship("books", to: book, toMany: true)
        let bookAuthor = relationship("author", to: author, toMany: false)
        books.inverseRelationship = bookAuthor
        bookAuthor.inverseRelationship = books
        let shelves = relationship("shelves", to: shelf, toMany: true)
        let shelfBooks = relationship("books", to: book, toMany: true)
        shelves.inverseRelationship = shelfBooks
        shelfBooks.inverseRelationship = shelves
        author.properties += [books]
        book.properties += [bookAuthor, shelves]
        shelf.properties += [shelfBooks]
        let model = NSManagedObjectModel()
        model.entities = [author, book, shelf]
        return model
    }

    private static func entity(_ name: String, _ properties: [NSPropertyDescription]) -> NSEntityDescription {
        let entity = NSEntityDescription()
        entity.name = name
        entity.properties = properties
        return entity
    }

    private static func attribute(_ name: String, _ type: NSAttributeType, optional: Bool = true) -> NSAttributeDescription {
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        attribute.isOptional = optional
        return attribute
    }

    private static func relationship(_ name: String, to destination: NSEntityDescription, toMany: Bool) -> NSRelationshipDescription {
        let relationship = NSRelationshipDescription()
        relationship.name = name
        relationship.destinationEntity = destination
        relationship.maxCount = toMany ? 0 : 1
        relationship.deleteRule = .nullifyDeleteRule
        return relationship
    }
}
