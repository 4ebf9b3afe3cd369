import CoreData
import SwiftData
import Testing

// A model of a macOS app whose SwiftData store is public (github.com/sergd2005/ResourcesManager,
// commit 4517a27, `default.store`, written by macOS 14's SwiftData, framework 1345). The store's
// Z_METADATA holds the version hashes and checksum below; the same classes, written here as the
// app writes them, must give them, so that the stores open on both sides.
enum ResourcesManager {
    @Model final class Item {
        @Attribute(.unique) var name: String
        var craftingRecipe: CraftingRecipe?
        var id: String { name }

        init(name: String) { self.name = name }
    }

    @Model final class Component {
        let id = UUID()
        var count: Int = 1
        var item: Item?
        var craftingRecipe: CraftingRecipe?

        init() {}
    }

    @Model final class CraftingRecipe {
        var requiredComponents: [Component] = []
        var producedItemCount = "1"
        var producedItem: Item?

        init() {}
    }
}

@Suite struct AppleStoreHashTests {
    let store = TemporaryStore()

    @Test func theModelsGiveTheVersionHashesOfTheStoreAppleWrote() throws {
        let container = try ModelContainer(for: ResourcesManager.Item.self, configurations: ModelConfiguration(url: store.url))
        let context = ModelContext(container)
        context.insert(ResourcesManager.CraftingRecipe())
        try context.save()
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: store.url, options: nil)
        let hashes = try #require(metadata[NSStoreModelVersionHashesKey] as? [String: Data])
        #expect(hashes.mapValues { $0.map { String(format: "%02x", $0) }.joined() } == [
            "Component": "fc80203a8a339b148fd0b6c3b0e586a260591563cf6780a406e69f18a69f8406",
            "CraftingRecipe": "acc6c82026903fd8bd74a3965988ffb840c0794119ccc9d6b360a0a753104617",
            "Item": "683a2c663d51fe60fba4165feb790087bed871d837ba64e81eb1e8836428c2a5",
        ])
        #expect(metadata[NSPersistentStoreModelVersionChecksumKey] as? String == "6T24D3nNvz6qsg0dO7y7IA3tlbZ0QpK/AwmP5KiXXgw=")
        #expect(metadata[NSStoreModelVersionIdentifiersKey] as? [String] == ["1.0.0"])
    }
}
