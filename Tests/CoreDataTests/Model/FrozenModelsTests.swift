@testable import CoreData
import Dispatch
import Testing

/// Used only as the class of the models of `FrozenModelsTests`.
final class FrozenModelsTestObject: NSManagedObject {}

/// The frozen models that `NSManagedObject.entity()` searches: a model's entities are found
/// while it lives, and neither kept nor found once it is freed.
@Suite(.serialized) struct FrozenModelsTests {
    /// A movie model whose Movie entity has `FrozenModelsTestObject` as its class, frozen by a coordinator.
    private static func frozenModel() -> NSManagedObjectModel {
        let model = MovieModel.make()
        for entity in model.entities where entity.name == "Movie" {
            entity.managedObjectClassName = NSStringFromClass(FrozenModelsTestObject.self)
        }
        _ = NSPersistentStoreCoordinator(managedObjectModel: model)
        return model
    }

    private static func searchedEntity() -> NSEntityDescription? {
        ManagedObjectClassRegistry.shared.entity(for: FrozenModelsTestObject.self, in: nil)
    }

    @Test func aFreedModelIsNeitherKeptNorSearched() {
        weak var freed: NSManagedObjectModel?
        do {
            let model = Self.frozenModel()
            freed = model
            #expect(Self.searchedEntity()?.name == "Movie")
            #expect(Self.searchedEntity()?.managedObjectModel === model)
        }
        #expect(freed == nil)
        #expect(Self.searchedEntity() == nil)
    }

    @Test func searchingWhileModelsAreFreedOnAnotherThread() {
        let rounds = 200
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for _ in 0..<rounds {
                if worker == 0 {
                    _ = Self.frozenModel()
                } else if let entity = Self.searchedEntity() {
                    #expect(entity.name == "Movie")
                }
            }
        }
        #expect(Self.searchedEntity() == nil)
    }
}
