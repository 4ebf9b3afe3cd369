@testable import CoreData
import Testing

/// `NSEntityDescription.entity(forEntityName:in:)` and `insertNewObject(forEntityName:into:)`
/// follow the context's coordinator, and its parent's, when they change.
@Suite struct EntityNameLookupTests {
    /// A coordinator whose model has one entity of each given name.
    private func coordinator(entities names: [String]) -> NSPersistentStoreCoordinator {
        let model = NSManagedObjectModel()
        model.entities = names.map { name in
            let entity = NSEntityDescription()
            entity.name = name
            entity.managedObjectClassName = NSStringFromClass(NSManagedObject.self)
            return entity
        }
        return NSPersistentStoreCoordinator(managedObjectModel: model)
    }

    @Test func lookupFollowsANewCoordinator() throws {
        let first = coordinator(entities: ["Song"])
        let second = coordinator(entities: ["Album"])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = first
        let song = try #require(NSEntityDescription.entity(forEntityName: "Song", in: context))
        #expect(song.managedObjectModel === first.managedObjectModel)

        context.persistentStoreCoordinator = second
        #expect(NSEntityDescription.entity(forEntityName: "Song", in: context) == nil)
        let album = try #require(NSEntityDescription.entity(forEntityName: "Album", in: context))
        #expect(album.managedObjectModel === second.managedObjectModel)
    }

    @Test func lookupFollowsTheParentsNewCoordinator() throws {
        let parent = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        parent.persistentStoreCoordinator = coordinator(entities: ["Song"])
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        #expect(NSEntityDescription.entity(forEntityName: "Song", in: child) != nil)

        parent.persistentStoreCoordinator = coordinator(entities: ["Album"])
        #expect(NSEntityDescription.entity(forEntityName: "Song", in: child) == nil)
        #expect(NSEntityDescription.entity(forEntityName: "Album", in: child) != nil)
    }

    @Test func lookupFollowsANewParent() throws {
        let songs = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        songs.persistentStoreCoordinator = coordinator(entities: ["Song"])
        let albums = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        albums.persistentStoreCoordinator = coordinator(entities: ["Album"])
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        #expect(NSEntityDescription.entity(forEntityName: "Song", in: child) == nil)

        child.parent = songs
        #expect(NSEntityDescription.entity(forEntityName: "Song", in: child) != nil)
        child.parent = albums
        #expect(NSEntityDescription.entity(forEntityName: "Song", in: child) == nil)
        let album = try #require(NSEntityDescription.entity(forEntityName: "Album", in: child))
        #expect(album.managedObjectModel === albums.persistentStoreCoordinator?.managedObjectModel)
    }

    @Test func insertingByNameUsesTheCurrentCoordinatorsModel() throws {
        let first = coordinator(entities: ["Song"])
        let second = coordinator(entities: ["Song"])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = first
        context.performAndWait {
            #expect(NSEntityDescription.insertNewObject(forEntityName: "Song", into: context).entity.managedObjectModel === first.managedObjectModel)
            context.reset()
        }
        context.persistentStoreCoordinator = second
        context.performAndWait {
            #expect(NSEntityDescription.insertNewObject(forEntityName: "Song", into: context).entity.managedObjectModel === second.managedObjectModel)
        }
    }
}
