import CoreData
import Testing

/// Reading through a program's atomic store (`ShelfFileStore`, over a text file): the store loads
/// its cache nodes when added, and fetches, faults and relationships read them.
@Suite struct AtomicStoreReadingTests {
    private static let shelf = """
        author|1|Le Guin
        author|2|Calvino
        book|earthsea|A Wizard of Earthsea|1968|1
        book|dispossessed|The Dispossessed|1974|1
        book|cities|Invisible Cities|1972|2
        """

    private func shelf() throws -> CustomStoreShelf {
        try CustomStoreShelf(ShelfFileStore.self, type: ShelfFileStore.storeType, file: "shelf.txt", contents: Self.shelf)
    }

    @Test func theStoreHasDefaultMetadataAndItsNodes() throws {
        let shelf = try shelf()
        let store = try #require(shelf.store as? NSAtomicStore)
        #expect(store.metadata[NSStoreTypeKey] as? String == "ShelfFile")
        #expect(store.identifier == store.metadata[NSStoreUUIDKey] as? String)
        #expect(store.metadata[NSStoreModelVersionHashesKey] != nil)
        #expect(store.cacheNodes().count == 5)
        let node = try #require(store.cacheNodes().first { ($0.value(forKey: "title") as? String) == "Invisible Cities" })
        #expect(store.referenceObject(for: node.objectID) as? String == "cities")
        #expect(store.cacheNode(for: node.objectID) === node)
    }

    @Test func fetchesFaultsAndRelationshipsReadTheNodes() throws {
        let shelf = try shelf()
        try shelf.context.performAndWait { try readBooks(in: shelf.context) }
    }

    /// Fetches with a predicate through a to-one relationship, fires faults both ways, and
    /// fetches dictionaries and a count.
    private func readBooks(in context: NSManagedObjectContext) throws {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.predicate = NSPredicate(format: "author.name == %@ AND year < 1970", "Le Guin")
        let books = try context.fetch(request)
        #expect(books.map { $0.value(forKey: "title") as? String } == ["A Wizard of Earthsea"])
        let author = try #require(books.first?.value(forKey: "author") as? NSManagedObject)
        #expect(author.value(forKey: "name") as? String == "Le Guin")
        let titles = (author.value(forKey: "books") as? Set<NSManagedObject>)?.compactMap { $0.value(forKey: "title") as? String }
        #expect(titles?.sorted() == ["A Wizard of Earthsea", "The Dispossessed"])

        let byYear = NSFetchRequest<NSDictionary>(entityName: "Book")
        byYear.resultType = .dictionaryResultType
        byYear.propertiesToFetch = ["title"]
        byYear.sortDescriptors = [NSSortDescriptor(key: "year", ascending: true)]
        let ordered = try context.fetch(byYear).map { $0["title"] as? String }
        #expect(ordered == ["A Wizard of Earthsea", "Invisible Cities", "The Dispossessed"])
        #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Author")) == 2)
    }

    @Test func aFileTheStoreCannotLoadLeavesNoStoreAndTheFileAsItWas() throws {
        try CustomStoreShelf.expectRefusal(ShelfFileStore.self, type: ShelfFileStore.storeType, contents: "book|x")
    }
}
