import CoreData
import Testing

/// Reading through a program's incremental store (`BookshelfStore`, over a JSON file): fetches
/// whose predicate, order and page Core Data applies in memory, faults filled from the store's
/// nodes, relationships both ways, counts, and object IDs made from reference objects.
@Suite struct IncrementalStoreReadingTests {
    private static let shelf = """
        {"authors": [{"id": 1, "name": "Le Guin"}, {"id": 2, "name": "Calvino"}],
         "books": [{"id": "earthsea", "title": "A Wizard of Earthsea", "year": 1968, "author": 1},
                   {"id": "dispossessed", "title": "The Dispossessed", "year": 1974, "author": 1},
                   {"id": "cities", "title": "Invisible Cities", "year": 1972, "author": 2},
                   {"id": "baron", "title": "The Baron in the Trees", "year": 1957, "author": 2}]}
        """

    private func shelfContext() throws -> CustomStoreShelf {
        try CustomStoreShelf(BookshelfStore.self, type: BookshelfStore.storeType, file: "shelf.json", contents: Self.shelf)
    }

    @Test func aFetchIsFilteredSortedAndPagedInMemory() throws {
        let shelf = try shelfContext()
        let (context, store) = (shelf.context, shelf.store)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.predicate = NSPredicate(format: "year > 1960")
            request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: false)]
            let books = try context.fetch(request)
            #expect(books.map { $0.value(forKey: "title") as? String } == ["The Dispossessed", "Invisible Cities", "A Wizard of Earthsea"])
            #expect(books.allSatisfy { $0.objectID.persistentStore === store })

            request.fetchOffset = 1
            request.fetchLimit = 1
            #expect(try context.fetch(request).map { $0.value(forKey: "year") as? Int } == [1972])
            request.fetchOffset = 0
            request.fetchLimit = 0
            #expect(try context.count(for: request) == 3)
        }
    }

    @Test func relationshipsAreReadFromNodesAndFromTheStoreBothWays() throws {
        let shelf = try shelfContext()
        let context = shelf.context
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.predicate = NSPredicate(format: "author.name == %@", "Calvino")
            let books = try context.fetch(request)
            #expect(Set(books.compactMap { $0.value(forKey: "title") as? String }) == ["Invisible Cities", "The Baron in the Trees"])

            let calvino = try #require(books.first?.value(forKey: "author") as? NSManagedObject)
            #expect(calvino.value(forKey: "name") as? String == "Calvino")
            let written = try #require(calvino.value(forKey: "books") as? Set<NSManagedObject>)
            #expect(written == Set(books))

            let authors = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Author"))
            let counts = authors.map { (($0.value(forKey: "books") as? Set<NSManagedObject>)?.count ?? -1) }
            #expect(counts == [2, 2])
        }
    }

    @Test func objectIDsComeFromReferenceObjectsAndGiveThemBack() throws {
        let shelf = try shelfContext()
        let context = shelf.context
        let incremental = try #require(shelf.store as? BookshelfStore)
        try context.performAndWait {
            let book = try #require(context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book")).first)
            #expect(incremental.referenceObject(for: book.objectID) as? String == "earthsea")
            let author = try #require(book.value(forKey: "author") as? NSManagedObject)
            #expect((incremental.referenceObject(for: author.objectID) as? NSNumber)?.intValue == 1)
            #expect(author.objectID.uriRepresentation().absoluteString == "x-coredata://bookshelf-shelf.json/Author/p1")
            let again = incremental.newObjectID(for: book.entity, referenceObject: "earthsea")
            #expect(again == book.objectID)
            #expect(context.object(with: again) === book)
            #expect(try context.existingObject(with: again) === book)
        }
    }

    @Test func aStoreWhoseMetadataCannotLoadIsNotAdded() throws {
        try CustomStoreShelf.expectRefusal(BookshelfStore.self, type: BookshelfStore.storeType, contents: "not json")
    }
}
