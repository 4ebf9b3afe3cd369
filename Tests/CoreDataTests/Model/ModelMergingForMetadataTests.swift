import CoreData
import Testing

/// `NSManagedObjectModel(byMerging:forStoreMetadata:)`: the models whose entity hashes a store's
/// metadata records, merged; nil when they do not make up the store's model.
@Suite struct ModelMergingForMetadataTests {
    private typealias Kit = ModelFixtureKit

    private func books(titleType: NSAttributeType = .stringAttributeType) -> NSManagedObjectModel {
        Kit.model([Kit.entity("Book", [Kit.attribute("title", titleType)])])
    }

    private func authors() -> NSManagedObjectModel {
        Kit.model([Kit.entity("Author", [Kit.attribute("name", .stringAttributeType)])])
    }

    /// The metadata of a store written with `model`.
    private func metadata(of model: NSManagedObjectModel) throws -> [String: Any] {
        let directory = try SQLiteScratchDirectory("merge-metadata")
        defer { directory.remove() }
        let stack = try SQLiteTestStack(model: model, url: directory.file("Store.sqlite"))
        defer { stack.close() }
        return stack.coordinator.metadata(for: stack.store)
    }

    @Test func theMatchingVersionsOfSeveralModelsAreMerged() throws {
        let stored = try metadata(of: try #require(NSManagedObjectModel(byMerging: [books(), authors()])))
        // Candidates: two versions of the book model (the first no longer matches) and the authors.
        let merged = try #require(NSManagedObjectModel(byMerging: [books(titleType: .integer64AttributeType), authors(), books()], forStoreMetadata: stored))
        #expect(Set(merged.entities.compactMap(\.name)) == ["Author", "Book"])
        #expect(merged.entitiesByName["Book"]?.attributesByName["title"]?.attributeType == .stringAttributeType)
        #expect(merged.isConfiguration(withName: nil, compatibleWithStoreMetadata: stored))
    }

    @Test func noModelIsMadeWhenTheMatchingModelsLackAnEntityOfTheStore() throws {
        let stored = try metadata(of: try #require(NSManagedObjectModel(byMerging: [books(), authors()])))
        #expect(NSManagedObjectModel(byMerging: [books()], forStoreMetadata: stored) == nil)
        #expect(NSManagedObjectModel(byMerging: [books(titleType: .integer64AttributeType), authors()], forStoreMetadata: stored) == nil)
        #expect(NSManagedObjectModel(byMerging: [], forStoreMetadata: stored) == nil)
        #expect(NSManagedObjectModel(byMerging: [books(), authors()], forStoreMetadata: [:]) == nil)
    }

    @Test func aModelWithEntitiesTheStoreDoesNotHaveIsLeftOut() throws {
        let stored = try metadata(of: books())
        let merged = try #require(NSManagedObjectModel(byMerging: [authors(), books(), books()], forStoreMetadata: stored))
        #expect(merged.entities.compactMap(\.name) == ["Book"])
    }
}
