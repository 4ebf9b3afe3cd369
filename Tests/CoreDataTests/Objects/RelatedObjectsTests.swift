@testable import CoreData
import Foundation
import Testing

/// The storage of a loaded to-many relationship: destinations read from a store start without a
/// membership table, which the first test or change makes; and the immutable sets handed out by
/// `value(forKey:)` stay as they were read while the relationship changes afterwards.
@Suite struct RelatedObjectsTests {
    private static func pets(_ count: Int, in context: NSManagedObjectContext) -> [NSManagedObject] {
        (0..<count).map { ctxInsert("Pet", into: context, ["name": "Pet \($0)"]) }
    }

    @Test func loadedDestinationsAnswerMembershipAndChangesLikeAnyOthers() throws {
        let stack = try CtxStack(model: CtxGraphModel.make(), storeType: NSInMemoryStoreType)
        stack.context.performAndWait {
            let pets = Self.pets(4, in: stack.context)
            let related = RelatedObjects(loaded: Array(pets.prefix(3)))
            #expect(related.count == 3)
            #expect(related.contains(pets[1]))
            #expect(!related.contains(pets[3]))
            #expect(!related.insert(pets[0]), "already a member")
            #expect(related.count == 3)
            #expect(related.remove(pets[1]))
            #expect(!related.remove(pets[1]))
            #expect(related.insert(pets[3]))
            #expect(related.insert(pets[1]), "a removed destination comes back, at the end")
            #expect(related.objects.map(ObjectIdentifier.init) == [pets[0], pets[2], pets[3], pets[1]].map(ObjectIdentifier.init))
            #expect(related.added.map(ObjectIdentifier.init) == [ObjectIdentifier(pets[3])])
            #expect(related.removed.isEmpty)
            #expect(related.hasChanges(ordered: false))
        }
    }

    @Test func aDestinationHandedOverTwiceIsAMemberOnce() throws {
        let stack = try CtxStack(model: CtxGraphModel.make(), storeType: NSInMemoryStoreType)
        stack.context.performAndWait {
            let pets = Self.pets(2, in: stack.context)
            let related = RelatedObjects(loaded: [pets[0], pets[1], pets[0]])
            #expect(related.contains(pets[0]))
            #expect(related.count == 2)
            #expect(related.objects.count == 2)
        }
    }

    @Test func theSetReadFromARelationshipKeepsWhatItHeldWhenTheRelationshipChanges() throws {
        let stack = try CtxStack(model: CtxGraphModel.make(), storeType: NSSQLiteStoreType)
        try stack.context.performAndWait { () throws in
            let alice = ctxInsert("Person", into: stack.context, ["name": "Alice"])
            let pets = Self.pets(3, in: stack.context)
            pets[0].setValue(alice, forKey: "owner")
            try stack.context.save()

            let loaded = try #require(alice.value(forKey: "pets") as? NSSet)
            #expect(loaded.count == 1)
            alice.mutableSetValue(forKey: "pets").add(pets[1])
            let added = try #require(alice.value(forKey: "pets") as? NSSet)
            #expect(loaded.count == 1, "the earlier value is a copy")
            #expect(added.count == 2)

            pets[2].setValue(alice, forKey: "owner")
            #expect(ctxObjects(alice.value(forKey: "pets")).count == 3, "a change through the inverse")
            pets[0].setValue(nil, forKey: "owner")
            #expect(!ctxContains(alice.value(forKey: "pets"), pets[0]))

            stack.context.rollback()
            let rolledBack = ctxObjects(alice.value(forKey: "pets"))
            #expect(rolledBack.count == 1 && rolledBack.first === pets[0], "the saved destinations again")
            #expect(added.count == 2)
        }
    }

    @Test func theOrderedSetReadFromARelationshipKeepsWhatItHeldWhenTheRelationshipChanges() throws {
        let stack = try CtxStack(model: CtxGraphModel.make(), storeType: NSInMemoryStoreType)
        stack.context.performAndWait {
            let playlist = ctxInsert("Playlist", into: stack.context)
            let songs = ["a", "b"].map { ctxInsert("Song", into: stack.context, ["title": $0]) }
            songs[0].setValue(playlist, forKey: "playlist")
            let before = playlist.value(forKey: "songs") as? NSOrderedSet
            playlist.mutableOrderedSetValue(forKey: "songs").insert(songs[1], at: 0)
            let after = playlist.value(forKey: "songs") as? NSOrderedSet
            #expect(before?.array.count == 1)
            #expect(after?.array.map { $0 as AnyObject === songs[1] } == [true, false])
        }
    }
}
