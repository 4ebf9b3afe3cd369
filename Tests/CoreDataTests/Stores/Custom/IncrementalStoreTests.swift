import CoreData
import Testing

/// What is particular to incremental stores: object IDs made from a store's reference objects.
@Suite struct IncrementalStoreTests {
    @Test func objectIDsComeFromReferenceObjectsAndGiveThemBack() throws {
        let shelf = try CustomStoreShelf.Kind.incremental.shelf()
        let context = shelf.context
        let incremental = try #require(shelf.store as? BookshelfStore)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.predicate = NSPredicate(format: "year == 1968")
            let book = try #require(context.fetch(request).first)
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
}
