import CoreData
import Testing

/// Inverse relationship upkeep: changing one side of a modeled relationship with an inverse
/// updates the other side at once (in memory, before any save), and what is saved reads back the
/// same from the store, ordered relationships in their order.
@Suite struct InverseRelationshipTests {
    private func makeStack(_ storeType: String = NSInMemoryStoreType) throws -> CtxStack {
        try CtxStack(model: CtxGraphModel.make(), storeType: storeType)
    }

    @Test func settingAToOneAddsToTheInverseToManyAtOnce() throws {
        let stack = try makeStack()
        stack.context.performAndWait {
            let alice = ctxInsert("Person", into: stack.context, ["name": "Alice"])
            let rex = ctxInsert("Pet", into: stack.context, ["name": "Rex"])
            rex.setValue(alice, forKey: "owner")
            #expect(ctxContains(alice.value(forKey: "pets"), rex))
            #expect(ctxObjects(alice.value(forKey: "pets")).count == 1)
        }
    }

    @Test func movingAToOneRemovesFromTheOldOwnersSet() throws {
        let stack = try makeStack()
        stack.context.performAndWait {
            let alice = ctxInsert("Person", into: stack.context, ["name": "Alice"])
            let bob = ctxInsert("Person", into: stack.context, ["name": "Bob"])
            let rex = ctxInsert("Pet", into: stack.context, ["name": "Rex", "owner": alice])
            rex.setValue(bob, forKey: "owner")
            #expect(!ctxContains(alice.value(forKey: "pets"), rex))
            #expect(ctxContains(bob.value(forKey: "pets"), rex))
            #expect(ctxObjects(alice.value(forKey: "pets")).isEmpty)
        }
    }

    @Test func clearingAToOneRemovesFromTheInverse() throws {
        let stack = try makeStack()
        stack.context.performAndWait {
            let alice = ctxInsert("Person", into: stack.context)
            let rex = ctxInsert("Pet", into: stack.context, ["owner": alice])
            rex.setValue(nil, forKey: "owner")
            #expect(ctxObjects(alice.value(forKey: "pets")).isEmpty)
        }
    }

    @Test func oneToOneStealingClearsThePreviousHolder() throws {
        let stack = try makeStack()
        stack.context.performAndWait {
            let alice = ctxInsert("Person", into: stack.context, ["name": "Alice"])
            let bob = ctxInsert("Person", into: stack.context, ["name": "Bob"])
            let passport = ctxInsert("Passport", into: stack.context, ["number": "X1"])
            alice.setValue(passport, forKey: "passport")
            #expect(passport.value(forKey: "holder") as? NSManagedObject === alice)

            bob.setValue(passport, forKey: "passport")
            #expect(passport.value(forKey: "holder") as? NSManagedObject === bob)
            #expect(alice.value(forKey: "passport") == nil)
            #expect(bob.value(forKey: "passport") as? NSManagedObject === passport)
        }
    }

    @Test func oneToOneStealingFromTheOtherSide() throws {
        let stack = try makeStack()
        stack.context.performAndWait {
            let alice = ctxInsert("Person", into: stack.context)
            let first = ctxInsert("Passport", into: stack.context, ["number": "1"])
            let second = ctxInsert("Passport", into: stack.context, ["number": "2"])
            first.setValue(alice, forKey: "holder")
            #expect(alice.value(forKey: "passport") as? NSManagedObject === first)
            second.setValue(alice, forKey: "holder")
            #expect(alice.value(forKey: "passport") as? NSManagedObject === second)
            #expect(first.value(forKey: "holder") == nil)
        }
    }

    @Test func replacingAToManySetUpdatesEveryInverseToOne() throws {
        let stack = try makeStack()
        stack.context.performAndWait {
            let alice = ctxInsert("Person", into: stack.context)
            let rex = ctxInsert("Pet", into: stack.context, ["name": "Rex"])
            let tom = ctxInsert("Pet", into: stack.context, ["name": "Tom"])
            alice.setValue(NSSet(array: [rex, tom]), forKey: "pets")
            #expect(rex.value(forKey: "owner") as? NSManagedObject === alice)
            #expect(tom.value(forKey: "owner") as? NSManagedObject === alice)

            alice.setValue(NSSet(array: [tom]), forKey: "pets")
            #expect(rex.value(forKey: "owner") == nil)
            #expect(tom.value(forKey: "owner") as? NSManagedObject === alice)
        }
    }

    @Test func addingToAnotherOwnersSetTakesThePetAway() throws {
        let stack = try makeStack()
        stack.context.performAndWait {
            let alice = ctxInsert("Person", into: stack.context)
            let bob = ctxInsert("Person", into: stack.context)
            let rex = ctxInsert("Pet", into: stack.context, ["owner": alice])
            bob.setValue(NSSet(array: [rex]), forKey: "pets")
            #expect(rex.value(forKey: "owner") as? NSManagedObject === bob)
            #expect(!ctxContains(alice.value(forKey: "pets"), rex))
        }
    }

    @Test func manyToManyUpdatesBothSides() throws {
        let stack = try makeStack()
        stack.context.performAndWait {
            let alice = ctxInsert("Person", into: stack.context)
            let bob = ctxInsert("Person", into: stack.context)
            let chess = ctxInsert("Club", into: stack.context, ["name": "Chess"])
            let golf = ctxInsert("Club", into: stack.context, ["name": "Golf"])
            alice.setValue(NSSet(array: [chess, golf]), forKey: "clubs")
            bob.setValue(NSSet(array: [chess]), forKey: "clubs")
            #expect(ctxObjects(chess.value(forKey: "members")).count == 2)
            #expect(ctxContains(golf.value(forKey: "members"), alice))
            #expect(!ctxContains(golf.value(forKey: "members"), bob))

            chess.setValue(NSSet(array: [bob]), forKey: "members")
            #expect(!ctxContains(alice.value(forKey: "clubs"), chess))
            #expect(ctxContains(alice.value(forKey: "clubs"), golf))
            #expect(ctxContains(bob.value(forKey: "clubs"), chess))
        }
    }

    @Test func inverseChangesDirtyBothObjects() throws {
        let stack = try makeStack(NSSQLiteStoreType)
        try stack.context.performAndWait { () throws in
            let alice = ctxInsert("Person", into: stack.context)
            let bob = ctxInsert("Person", into: stack.context)
            let rex = ctxInsert("Pet", into: stack.context, ["owner": alice])
            try stack.context.save()
            rex.setValue(bob, forKey: "owner")
            #expect(stack.context.updatedObjects == Set([alice, bob, rex]))
        }
    }

    @Test func relationshipsReadBackFromTheStoreOnBothSides() throws {
        let stack = try makeStack(NSSQLiteStoreType)
        try stack.context.performAndWait { () throws in
            let alice = ctxInsert("Person", into: stack.context, ["name": "Alice"])
            let bob = ctxInsert("Person", into: stack.context, ["name": "Bob"])
            ctxInsert("Pet", into: stack.context, ["name": "Rex", "owner": alice])
            ctxInsert("Pet", into: stack.context, ["name": "Tom", "owner": alice])
            ctxInsert("Passport", into: stack.context, ["number": "B1", "holder": bob])
            let chess = ctxInsert("Club", into: stack.context, ["name": "Chess"])
            chess.setValue(NSSet(array: [alice, bob]), forKey: "members")
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let people = try ctxFetch("Person", in: reopened.context, sortedBy: "name")
            try #require(people.count == 2)
            let (alice, bob) = (people[0], people[1])
            let petNames = Set(ctxObjects(alice.value(forKey: "pets")).compactMap { $0.value(forKey: "name") as? String })
            #expect(petNames == ["Rex", "Tom"])
            #expect(ctxObjects(bob.value(forKey: "pets")).isEmpty)
            #expect((bob.value(forKey: "passport") as? NSManagedObject)?.value(forKey: "number") as? String == "B1")
            #expect(alice.value(forKey: "passport") == nil)

            let pets = try ctxFetch("Pet", in: reopened.context)
            #expect(pets.allSatisfy { $0.value(forKey: "owner") as? NSManagedObject === alice })

            let clubs = try ctxFetch("Club", in: reopened.context)
            try #require(clubs.count == 1)
            #expect(ctxObjects(clubs[0].value(forKey: "members")).count == 2)
            #expect(ctxContains(alice.value(forKey: "clubs"), clubs[0]))
            #expect(ctxContains(bob.value(forKey: "clubs"), clubs[0]))
        }
    }

    @Test func linkingBothSidesOfAManyToManyStoresOneLink() throws {
        let stack = try makeStack(NSSQLiteStoreType)
        try stack.context.performAndWait { () throws in
            let alice = ctxInsert("Person", into: stack.context, ["name": "Alice"])
            let bob = ctxInsert("Person", into: stack.context, ["name": "Bob"])
            let chess = ctxInsert("Club", into: stack.context, ["name": "Chess"])
            alice.setValue(NSSet(array: [chess]), forKey: "clubs")
            try stack.context.save()
            // The same link again from the other side, plus a new one.
            chess.setValue(NSSet(array: [alice, bob]), forKey: "members")
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let chess = try #require(try ctxFetch("Club", in: reopened.context).first)
            #expect(ctxObjects(chess.value(forKey: "members")).count == 2)
            let alice = try #require(try ctxFetch("Person", in: reopened.context, "name == 'Alice'").first)
            #expect(ctxObjects(alice.value(forKey: "clubs")).count == 1)
            #expect(try ctxFetch("Club", in: reopened.context, "members.@count == 2").count == 1)
        }
    }

    @Test func removalsFromAManyToManyArePersisted() throws {
        let stack = try makeStack(NSSQLiteStoreType)
        try stack.context.performAndWait { () throws in
            let alice = ctxInsert("Person", into: stack.context, ["name": "Alice"])
            let chess = ctxInsert("Club", into: stack.context, ["name": "Chess"])
            let golf = ctxInsert("Club", into: stack.context, ["name": "Golf"])
            alice.setValue(NSSet(array: [chess, golf]), forKey: "clubs")
            try stack.context.save()
            golf.setValue(NSSet(), forKey: "members")
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let alice = try #require(try ctxFetch("Person", in: reopened.context).first)
            let names = ctxObjects(alice.value(forKey: "clubs")).compactMap { $0.value(forKey: "name") as? String }
            #expect(names == ["Chess"])
            let golf = try #require(try ctxFetch("Club", in: reopened.context, "name == 'Golf'").first)
            #expect(ctxObjects(golf.value(forKey: "members")).isEmpty)
        }
    }

    @Test func orderedRelationshipsKeepTheirOrderAcrossSaveAndReopen() throws {
        let stack = try makeStack(NSSQLiteStoreType)
        let order = ["Zebra", "Apple", "Mango", "Banana"]
        try stack.context.performAndWait { () throws in
            let playlist = ctxInsert("Playlist", into: stack.context, ["name": "Mix"])
            let songs = order.map { ctxInsert("Song", into: stack.context, ["title": $0]) }
            playlist.setValue(NSOrderedSet(array: songs), forKey: "songs")
            #expect(songs.allSatisfy { $0.value(forKey: "playlist") as? NSManagedObject === playlist })
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let playlist = try #require(try ctxFetch("Playlist", in: reopened.context).first)
            let songs = playlist.value(forKey: "songs")
            #expect(songs is NSOrderedSet)
            #expect(ctxObjects(songs).compactMap { $0.value(forKey: "title") as? String } == order)

            // Reorder and save again: the new order is what the store keeps.
            let reversed = Array(ctxObjects(songs).reversed())
            playlist.setValue(NSOrderedSet(array: reversed), forKey: "songs")
            try reopened.context.save()
        }
        let again = try reopened.reopened()
        try again.context.performAndWait { () throws in
            let playlist = try #require(try ctxFetch("Playlist", in: again.context).first)
            #expect(ctxObjects(playlist.value(forKey: "songs")).compactMap { $0.value(forKey: "title") as? String } == order.reversed())
        }
    }

    @Test func settingTheToOneOfAnOrderedRelationshipAppends() throws {
        let stack = try makeStack(NSSQLiteStoreType)
        try stack.context.performAndWait { () throws in
            let playlist = ctxInsert("Playlist", into: stack.context)
            let first = ctxInsert("Song", into: stack.context, ["title": "first"])
            let second = ctxInsert("Song", into: stack.context, ["title": "second"])
            first.setValue(playlist, forKey: "playlist")
            second.setValue(playlist, forKey: "playlist")
            #expect(ctxObjects(playlist.value(forKey: "songs")).compactMap { $0.value(forKey: "title") as? String } == ["first", "second"])
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let playlist = try #require(try ctxFetch("Playlist", in: reopened.context).first)
            #expect(ctxObjects(playlist.value(forKey: "songs")).compactMap { $0.value(forKey: "title") as? String } == ["first", "second"])
        }
    }

    @Test func inverseOfAFaultedObjectIsUpdatedToo() throws {
        let stack = try makeStack(NSSQLiteStoreType)
        try stack.context.performAndWait { () throws in
            let alice = ctxInsert("Person", into: stack.context, ["name": "Alice"])
            ctxInsert("Pet", into: stack.context, ["name": "Rex", "owner": alice])
            ctxInsert("Person", into: stack.context, ["name": "Bob"])
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let rex = try #require(try ctxFetch("Pet", in: reopened.context).first)
            let bob = try #require(try ctxFetch("Person", in: reopened.context, "name == 'Bob'").first)
            // Alice is only reachable as a fault through rex.owner; moving rex must update her set.
            let alice = try #require(rex.value(forKey: "owner") as? NSManagedObject)
            rex.setValue(bob, forKey: "owner")
            #expect(!ctxContains(alice.value(forKey: "pets"), rex))
            #expect(ctxContains(bob.value(forKey: "pets"), rex))
            try reopened.context.save()
        }
        let again = try reopened.reopened()
        try again.context.performAndWait { () throws in
            let alice = try #require(try ctxFetch("Person", in: again.context, "name == 'Alice'").first)
            let bob = try #require(try ctxFetch("Person", in: again.context, "name == 'Bob'").first)
            #expect(ctxObjects(alice.value(forKey: "pets")).isEmpty)
            #expect(ctxObjects(bob.value(forKey: "pets")).count == 1)
        }
    }
}
