import CoreData
import Testing

/// Reading through the stores a program subclasses: an incremental store (`BookshelfStore`, over
/// a JSON file) and an atomic store (`ShelfFileStore`, over a text file), over the same sample.
/// Core Data applies a fetch's predicate, order and page in memory, fills faults from the stores'
/// nodes, and follows relationships both ways.
@Suite struct CustomStoreReadingTests {
    typealias Kind = CustomStoreShelf.Kind

    @Test(arguments: Kind.allCases)
    func aFetchIsFilteredSortedAndPagedInMemory(_ kind: Kind) throws {
        let shelf = try kind.shelf()
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

    @Test(arguments: Kind.allCases)
    func relationshipsAreReadBothWays(_ kind: Kind) throws {
        let shelf = try kind.shelf()
        try shelf.context.performAndWait { try readRelationships(in: shelf.context) }
    }

    /// Fetches through a to-one relationship in the predicate, fires the faults of both sides,
    /// and fetches dictionaries and a count.
    private func readRelationships(in context: NSManagedObjectContext) throws {
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

    @Test(arguments: Kind.allCases)
    func aFileTheStoreCannotLoadLeavesNoStoreAndTheFileAsItWas(_ kind: Kind) throws {
        try kind.expectRefusalOfDamagedFile()
    }
}
