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

    /// A save whose `save()` fails throws, and the store reads its nodes again from the file, which
    /// is unchanged; the context keeps its unsaved object.
    @Test func aFailedWriteLeavesTheFileAndReloadsTheNodes() throws {
        let shelf = try CustomStoreShelf.Kind.atomic.shelf()
        let store = try #require(shelf.store as? NSAtomicStore)
        let url = try #require(store.url)
        let before = try Data(contentsOf: url)
        try shelf.context.performAndWait {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: shelf.context)
            book.setValue("Unwritable", forKey: "title")
            #expect { try shelf.context.save() } throws: { ($0 as NSError).code == CocoaError.fileWriteOutOfSpace.rawValue }
            #expect(book.isInserted)
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(store.cacheNodes().count == 5)
        let reopened = try shelf.reopened()
        let count = try reopened.context.performAndWait { try reopened.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book")) }
        #expect(count == 3)
    }
}
