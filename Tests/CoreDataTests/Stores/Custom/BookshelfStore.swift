import CoreData

/// An incremental store over a JSON file of authors and books, written as a program would write
/// one: authors are named by numbers, books by strings; a book's node carries its author, and an
/// author's books are asked for through `newValue(forRelationship:…)`. A save rewrites the file,
/// one more on the version of each record it changes (1 when the file has none).
final class BookshelfStore: NSIncrementalStore, @unchecked Sendable {
    static let storeType = NSPersistentStore.StoreType(rawValue: "Bookshelf")

    private var authors: [[String: Any]] = []
    /// How many times Core Data asked for an object's values.
    private(set) var valueRequests = 0
    /// The IDs of each call of `managedObjectContextDidRegisterObjects(with:)`, and of its
    /// counterpart.
    private(set) var registrations: [[NSManagedObjectID]] = []
    private(set) var unregistrations: [[NSManagedObjectID]] = []
    private var books: [[String: Any]] = []

    /// The model the store serves: Author (name, books) and Book (title, year, author); deleting
    /// an author applies `booksDeleteRule` to its books.
    static func model(booksDeleteRule: NSDeleteRule = .nullifyDeleteRule) -> NSManagedObjectModel {
        typealias Kit = ModelFixtureKit
        let author = Kit.entity("Author", [Kit.attribute("name", .stringAttributeType)])
        let book = Kit.entity("Book", [Kit.attribute("title", .stringAttributeType), Kit.attribute("year", .integer32AttributeType)])
        let books = Kit.relationship("books", to: book, maxCount: 0, deleteRule: booksDeleteRule)
        let writer = Kit.relationship("author", to: author, maxCount: 1)
        Kit.inverse(books, writer)
        author.properties.append(books)
        book.properties.append(writer)
        return Kit.model([author, book])
    }

    /// A file of two authors and their books, in the store's format.
    static let sampleShelf = """
        {"authors": [{"id": 1, "name": "Le Guin"}, {"id": 2, "name": "Calvino"}],
         "books": [{"id": "earthsea", "title": "A Wizard of Earthsea", "year": 1968, "author": 1},
                   {"id": "dispossessed", "title": "The Dispossessed", "year": 1974, "author": 1},
                   {"id": "cities", "title": "Invisible Cities", "year": 1972, "author": 2}]}
        """

    override var type: String {
        Self.storeType.rawValue
    }

    /// Reads the file; a store where there is none yet is empty.
    override func loadMetadata() throws {
        guard let url else { throw CocoaError(.fileNoSuchFile) }
        let data = FileManager.default.fileExists(atPath: url.path) ? try Data(contentsOf: url) : Data(#"{"authors": [], "books": []}"#.utf8)
        guard let shelf = try JSONSerialization.jsonObject(with: data) as? [String: [[String: Any]]],
              let authors = shelf["authors"], let books = shelf["books"] else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSURLErrorKey: url])
        }
        self.authors = authors
        self.books = books
        metadata = [NSStoreTypeKey: type, NSStoreUUIDKey: "bookshelf-\(url.lastPathComponent)"]
    }

    override func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext?) throws -> Any {
        if let save = request as? NSSaveChangesRequest {
            try write(save)
            return [Any]()
        }
        guard request.requestType == .fetchRequestType, let fetch = request as? NSFetchRequest<NSFetchRequestResult>,
              let entity = fetch.entity, let context else {
            throw CocoaError(.featureUnsupported)
        }
        let records = entity.name == "Author" ? authors : books
        let objectIDs = records.map { newObjectID(for: entity, referenceObject: $0["id"]!) }
        if fetch.resultType == .managedObjectIDResultType { return objectIDs }
        return objectIDs.map { context.object(with: $0) }
    }

    override func newValuesForObject(with objectID: NSManagedObjectID, with context: NSManagedObjectContext) throws -> NSIncrementalStoreNode {
        valueRequests += 1
        let reference = referenceObject(for: objectID)
        if objectID.entity.name == "Author" {
            guard let author = authors.first(where: { Self.same($0["id"], reference) }) else { throw CocoaError(.fileNoSuchFile) }
            return NSIncrementalStoreNode(objectID: objectID, withValues: ["name": author["name"] ?? NSNull()], version: Self.version(of: author))
        }
        guard let book = books.first(where: { Self.same($0["id"], reference) }) else { throw CocoaError(.fileNoSuchFile) }
        let author = book["author"].flatMap { $0 is NSNull ? nil : newObjectID(for: authorEntity, referenceObject: $0) } as Any? ?? NSNull()
        return NSIncrementalStoreNode(objectID: objectID, withValues: ["title": book["title"]!, "year": book["year"]!, "author": author], version: Self.version(of: book))
    }

    override func newValue(forRelationship relationship: NSRelationshipDescription, forObjectWith objectID: NSManagedObjectID, with context: NSManagedObjectContext?) throws -> Any {
        let reference = referenceObject(for: objectID)
        let written = books.filter { Self.same($0["author"], reference) }
        return written.map { newObjectID(for: relationship.destinationEntity!, referenceObject: $0["id"]!) }
    }

    override func managedObjectContextDidRegisterObjects(with objectIDs: [NSManagedObjectID]) {
        registrations.append(objectIDs)
    }

    override func managedObjectContextDidUnregisterObjects(with objectIDs: [NSManagedObjectID]) {
        unregistrations.append(objectIDs)
    }

    /// Authors get the next numbers, books UUIDs.
    override func obtainPermanentIDs(for array: [NSManagedObject]) throws -> [NSManagedObjectID] {
        var nextAuthor = (authors.compactMap { $0["id"] as? Int }.max() ?? 0) + 1
        return array.map { object in
            guard object.entity.name == "Author" else {
                return newObjectID(for: object.entity, referenceObject: UUID().uuidString)
            }
            defer { nextAuthor += 1 }
            return newObjectID(for: object.entity, referenceObject: nextAuthor)
        }
    }

    private func write(_ save: NSSaveChangesRequest) throws {
        for object in (save.deletedObjects ?? []) {
            let reference = "\(referenceObject(for: object.objectID))"
            authors.removeAll { "\($0["id"] ?? "")" == reference }
            books.removeAll { "\($0["id"] ?? "")" == reference }
        }
        for object in (save.insertedObjects ?? []).union(save.updatedObjects ?? []) {
            let reference = referenceObject(for: object.objectID)
            if object.entity.name == "Author" {
                let version = authors.first { Self.same($0["id"], reference) }.map { Self.version(of: $0) + 1 } ?? 1
                let record: [String: Any] = ["id": reference, "name": object.value(forKey: "name") ?? NSNull(), "version": version]
                authors.removeAll { Self.same($0["id"], reference) }
                authors.append(record)
            } else {
                let version = books.first { Self.same($0["id"], reference) }.map { Self.version(of: $0) + 1 } ?? 1
                let author = (object.value(forKey: "author") as? NSManagedObject).map { referenceObject(for: $0.objectID) }
                let record: [String: Any] = ["id": reference, "title": object.value(forKey: "title") ?? NSNull(),
                                             "year": object.value(forKey: "year") ?? NSNull(), "author": author ?? NSNull(), "version": version]
                books.removeAll { Self.same($0["id"], reference) }
                books.append(record)
            }
        }
        let data = try JSONSerialization.data(withJSONObject: ["authors": authors, "books": books], options: [.sortedKeys])
        try data.write(to: url!, options: .atomic)
    }

    private var authorEntity: NSEntityDescription {
        persistentStoreCoordinator!.managedObjectModel.entitiesByName["Author"]!
    }

    private static func version(of record: [String: Any]) -> UInt64 {
        (record["version"] as? NSNumber)?.uint64Value ?? 1
    }

    /// Whether a JSON value and a reference object name the same record (numbers come back as
    /// `NSNumber`s).
    private static func same(_ json: Any?, _ reference: Any) -> Bool {
        "\(json ?? "")" == "\(reference)"
    }
}
