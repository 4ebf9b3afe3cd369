import CoreData
import Testing

/// What is particular to atomic stores: Apple's default metadata, and the cache nodes `load()`
/// registers.
@Suite struct AtomicStoreTests {
    @Test func theStoreHasDefaultMetadataAndItsNodes() throws {
        let shelf = try CustomStoreShelf.Kind.atomic.shelf()
        let store = try #require(shelf.store as? NSAtomicStore)
        #expect(store.metadata[NSStoreTypeKey] as? String == "ShelfFile")
        #expect(store.identifier == store.metadata[NSStoreUUIDKey] as? String)
        #expect(store.metadata[NSStoreModelVersionHashesKey] != nil)
        #expect(store.cacheNodes().count == 5)
        let node = try #require(store.cacheNodes().first { ($0.value(forKey: "title") as? String) == "Invisible Cities" })
        #expect(store.referenceObject(for: node.objectID) as? String == "cities")
        #expect(store.cacheNode(for: node.objectID) === node)
    }

    /// A save whose `save()` fails throws, and the store's nodes are as they were, as is the file;
    /// the context keeps its unsaved changes.
    @Test func aFailedWriteLeavesTheFileAndTheNodesAsTheyWere() throws {
        let shelf = try CustomStoreShelf.Kind.atomic.shelf()
        let store = try #require(shelf.store as? NSAtomicStore)
        let url = try #require(store.url)
        let before = try Data(contentsOf: url)
        try shelf.context.performAndWait {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: shelf.context)
            book.setValue("Unwritable", forKey: "title")
            let request = NSFetchRequest<NSManagedObject>(entityName: "Author")
            request.predicate = NSPredicate(format: "name == %@", "Calvino")
            let calvino = try #require(shelf.context.fetch(request).first)
            calvino.setValue("Italo Calvino", forKey: "name")
            book.setValue(calvino, forKey: "author")
            #expect { try shelf.context.save() } throws: { ($0 as NSError).code == CocoaError.fileWriteOutOfSpace.rawValue }
            #expect(book.isInserted)
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(store.cacheNodes().count == 5)
        let calvinoNode = store.cacheNodes().first { $0.value(forKey: "name") as? String == "Calvino" }
        #expect((calvinoNode?.value(forKey: "books") as? NSSet)?.count == 1)
        let reopened = try shelf.reopened()
        let count = try reopened.context.performAndWait { try reopened.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book")) }
        #expect(count == 3)
    }

    /// Values set through `setValue(_:forKey:)` are in `propertyCache`, and changes made to the
    /// dictionary in place are the node's values.
    @Test func aNodesPropertyCacheHoldsItsValuesAndTakesChangesInPlace() throws {
        let shelf = try CustomStoreShelf.Kind.atomic.shelf()
        let store = try #require(shelf.store as? NSAtomicStore)
        let node = try #require(store.cacheNodes().first { ($0.value(forKey: "title") as? String) == "Invisible Cities" })
        let cache = try #require(node.propertyCache)
        #expect(cache["title"] as? String == "Invisible Cities")
        cache["title"] = "Le città invisibili"
        #expect(node.value(forKey: "title") as? String == "Le città invisibili")
        node.setValue(nil, forKey: "title")
        #expect(cache["title"] == nil)

        let empty = NSAtomicStoreCacheNode(objectID: node.objectID)
        #expect(empty.propertyCache == nil)
        empty.setValue("x", forKey: "title")
        #expect(empty.propertyCache?["title"] as? String == "x")
    }
}
