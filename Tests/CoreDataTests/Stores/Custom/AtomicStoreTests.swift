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
}
