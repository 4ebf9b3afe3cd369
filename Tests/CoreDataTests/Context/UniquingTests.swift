import CoreData
import Testing

/// Uniquing (MOC-22, FLT-9): one object per record per context, across fetches and relationship
/// traversals; `object(with:)`, `existingObject(with:)` and `registeredObject(for:)`.
@Suite struct UniquingTests {
    /// A saved store with one movie (Alien) and two characters (Ripley, Ash) of one actor.
    private func savedStack() throws -> CtxStack {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            let actor = ctxInsert("Actor", into: stack.context, ["name": "Sigourney Weaver"])
            ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie, "actor": actor])
            ctxInsert("Character", into: stack.context, ["name": "Ash", "movie": movie])
            try stack.context.save()
        }
        return try stack.reopened()
    }

    @Test func twoFetchesReturnTheSameInstances() throws {
        let stack = try savedStack()
        try stack.context.performAndWait { () throws in
            let first = try ctxFetch("Movie", in: stack.context)
            let second = try ctxFetch("Movie", in: stack.context)
            try #require(first.count == 1 && second.count == 1)
            #expect(first[0] === second[0])
            let viaPredicate = try ctxFetch("Movie", in: stack.context, "title == %@", ["Alien"])
            #expect(viaPredicate.first === first[0])
        }
    }

    @Test func relationshipTraversalsReturnTheRegisteredInstances() throws {
        let stack = try savedStack()
        try stack.context.performAndWait { () throws in
            let movie = try #require(try ctxFetch("Movie", in: stack.context).first)
            let characters = try ctxFetch("Character", in: stack.context)
            try #require(characters.count == 2)
            for character in characters {
                #expect(character.value(forKey: "movie") as? NSManagedObject === movie)
            }
            let viaRelationship = ctxObjects(movie.value(forKey: "characters"))
            #expect(Set(viaRelationship.map(ObjectIdentifier.init)) == Set(characters.map(ObjectIdentifier.init)))
        }
    }

    @Test func faultsOfTheSameRecordAreTheSameObject() throws {
        let stack = try savedStack()
        try stack.context.performAndWait { () throws in
            // Fetch only the characters: their movie is reached as a fault, the same one for both.
            let characters = try ctxFetch("Character", in: stack.context)
            try #require(characters.count == 2)
            let a = try #require(characters[0].value(forKey: "movie") as? NSManagedObject)
            let b = try #require(characters[1].value(forKey: "movie") as? NSManagedObject)
            #expect(a === b)
            #expect(a.isFault)
            // Fetching the movie afterwards returns that same instance.
            let fetched = try #require(try ctxFetch("Movie", in: stack.context).first)
            #expect(fetched === a)
        }
    }

    @Test func objectWithIDReturnsTheRegisteredObject() throws {
        let stack = try savedStack()
        try stack.context.performAndWait { () throws in
            let movie = try #require(try ctxFetch("Movie", in: stack.context).first)
            #expect(stack.context.object(with: movie.objectID) === movie)

            let inserted = ctxInsert("Movie", into: stack.context, ["title": "New"])
            #expect(stack.context.object(with: inserted.objectID) === inserted)
        }
    }

    @Test func objectWithIDReturnsAFaultForAnUnregisteredRecord() throws {
        let stack = try savedStack()
        let id = try stack.context.performAndWait { () throws in try #require(try ctxFetch("Movie", in: stack.context).first).objectID }
        let other = stack.newContext()
        other.performAndWait {
            #expect(other.registeredObject(for: id) == nil)
            let fault = other.object(with: id)
            #expect(fault.isFault)
            #expect(fault.objectID == id)
            #expect(fault.entity.name == "Movie")
            #expect(other.object(with: id) === fault)
            #expect(other.registeredObject(for: id) === fault)
            // Firing it loads the values.
            #expect(fault.value(forKey: "title") as? String == "Alien")
            #expect(!fault.isFault)
        }
    }

    @Test func objectWithIDDoesNoIOEvenForAMissingRecord() throws {
        let stack = try savedStack()
        let id = try stack.context.performAndWait { () throws in
            let movie = try #require(try ctxFetch("Movie", in: stack.context).first)
            let id = movie.objectID
            stack.context.delete(movie)
            try stack.context.save()
            return id
        }
        let other = stack.newContext()
        other.performAndWait {
            // The record is gone, yet object(with:) still hands out a fault without complaint.
            let fault = other.object(with: id)
            #expect(fault.isFault)
            #expect(fault.objectID == id)
        }
    }

    @Test func aFaultWhoseRecordIsGoneBecomesADeletedObjectWithNilValues() throws {
        // MOC-35: shouldDeleteInaccessibleFaults defaults to true.
        let stack = try savedStack()
        let id = try stack.context.performAndWait { () throws in
            let movie = try #require(try ctxFetch("Movie", in: stack.context).first)
            let id = movie.objectID
            stack.context.delete(movie)
            try stack.context.save()
            return id
        }
        let other = stack.newContext()
        #expect(other.shouldDeleteInaccessibleFaults)
        try other.performAndWait { () throws in
            let fault = other.object(with: id)
            #expect(fault.value(forKey: "title") == nil)
            #expect(fault.value(forKey: "year") == nil)
            #expect(fault.isDeleted)
            #expect(other.deletedObjects.contains(fault))
            // It is discarded at the next save, which succeeds despite the nil mandatory title.
            try other.save()
            #expect(other.deletedObjects.isEmpty)
        }
    }

    @Test func objectsWithPendingChangesAreKeptAliveByTheContext() throws {
        let stack = try savedStack()
        try stack.context.performAndWait { () throws in
            do {
                let movie = try #require(try ctxFetch("Movie", in: stack.context).first)
                movie.setValue("Changed while unreferenced", forKey: "title")
                ctxInsert("Movie", into: stack.context, ["title": "Inserted while unreferenced"])
            }
            // The test holds no reference to either object any more.
            #expect(stack.context.updatedObjects.count == 1)
            #expect(stack.context.insertedObjects.count == 1)
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let titles = Set(try ctxFetch("Movie", in: reopened.context).compactMap { $0.value(forKey: "title") as? String })
            #expect(titles == ["Changed while unreferenced", "Inserted while unreferenced"])
        }
    }

    @Test func retainsRegisteredObjectsKeepsUnchangedObjectsRegistered() throws {
        let stack = try savedStack()
        try stack.context.performAndWait { () throws in
            stack.context.retainsRegisteredObjects = true
            let id: NSManagedObjectID
            do {
                id = try #require(try ctxFetch("Movie", in: stack.context).first).objectID
            }
            #expect(stack.context.registeredObject(for: id) != nil)
        }
    }

    @Test func existingObjectThrows133000ForAMissingRecord() throws {
        let stack = try savedStack()
        let id = try stack.context.performAndWait { () throws in
            let movie = try #require(try ctxFetch("Movie", in: stack.context).first)
            let id = movie.objectID
            stack.context.delete(movie)
            try stack.context.save()
            return id
        }
        let other = stack.newContext()
        other.performAndWait {
            let error = ctxError { _ = try other.existingObject(with: id) }
            #expect(error?.domain == NSCocoaErrorDomain)
            #expect(error?.code == NSManagedObjectReferentialIntegrityError)
            #expect(error?.code == 133000)
        }
    }

    @Test func existingObjectThrowsForAFaultWhoseRecordIsGone() throws {
        let stack = try savedStack()
        let other = stack.newContext()
        let id = try stack.context.performAndWait { () throws in try #require(try ctxFetch("Movie", in: stack.context).first).objectID }
        // The other context registers a fault first, then the record is deleted.
        other.performAndWait { _ = other.object(with: id) }
        try stack.context.performAndWait { () throws in
            stack.context.delete(stack.context.object(with: id))
            try stack.context.save()
        }
        other.performAndWait {
            #expect(ctxError { _ = try other.existingObject(with: id) }?.code == 133000)
        }
    }

    @Test func existingObjectNeverReturnsAFault() throws {
        let stack = try savedStack()
        let id = try stack.context.performAndWait { () throws in try #require(try ctxFetch("Movie", in: stack.context).first).objectID }
        let other = stack.newContext()
        try other.performAndWait { () throws in
            let object = try other.existingObject(with: id)
            #expect(!object.isFault)
            #expect(object.value(forKey: "title") as? String == "Alien")
            #expect(try other.existingObject(with: id) === object)
        }
        let third = stack.newContext()
        try third.performAndWait { () throws in
            let fault = third.object(with: id)
            #expect(fault.isFault)
            let existing = try third.existingObject(with: id)
            #expect(existing === fault)
            #expect(!existing.isFault)
        }
    }

    @Test func existingObjectFindsAnUnsavedInsertInItsOwnContextOnly() throws {
        let stack = try savedStack()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Unsaved"])
            #expect(try stack.context.existingObject(with: movie.objectID) === movie)
            let other = stack.newContext()
            other.performAndWait {
                #expect(ctxError { _ = try other.existingObject(with: movie.objectID) } != nil)
            }
        }
    }

    @Test func registeredObjectIsNilUntilTheObjectIsRegistered() throws {
        let stack = try savedStack()
        let id = try stack.context.performAndWait { () throws in try #require(try ctxFetch("Movie", in: stack.context).first).objectID }
        let other = stack.newContext()
        try other.performAndWait { () throws in
            #expect(other.registeredObject(for: id) == nil)
            let fetched = try ctxFetch("Movie", in: other)
            #expect(other.registeredObject(for: id) === fetched.first)
            #expect(other.registeredObjects.contains(try #require(fetched.first)))

            let inserted = ctxInsert("Movie", into: other, ["title": "New"])
            #expect(other.registeredObject(for: inserted.objectID) === inserted)
        }
    }

    @Test func differentContextsHoldDifferentInstancesOfOneRecord() throws {
        let stack = try savedStack()
        let other = stack.newContext()
        let first = try stack.context.performAndWait { () throws in try #require(try ctxFetch("Movie", in: stack.context).first) }
        let second = try other.performAndWait { () throws in try #require(try ctxFetch("Movie", in: other).first) }
        #expect(first !== second)
        #expect(first.objectID == second.objectID)
        #expect(first.managedObjectContext === stack.context)
        #expect(second.managedObjectContext === other)
        // A change in one context is not seen by the other's instance.
        stack.context.performAndWait { first.setValue("Changed", forKey: "title") }
        other.performAndWait { #expect(second.value(forKey: "title") as? String == "Alien") }
    }

    @Test func theSavedObjectKeepsItsIdentityUnderItsPermanentID() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            #expect(stack.context.registeredObject(for: movie.objectID) === movie)
            #expect(try ctxFetch("Movie", in: stack.context).first === movie)
        }
    }
}
