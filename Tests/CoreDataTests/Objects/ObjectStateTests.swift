import CoreData
import Testing

/// The change-tracking state of managed objects (MOC-1, MOC-3, MOC-4, MOC-5, FLT-3):
/// isInserted/isUpdated/isDeleted/hasChanges, hasPersistentChangedValues, changedValues(),
/// committedValues(forKeys:), identity-based hashing.
@Suite struct ObjectStateTests {
    private func movies() throws -> CtxStack {
        try CtxStack(model: MovieModel.make())
    }

    @Test func managedObjectsAreHashableByIdentity() throws {
        let stack = try movies()
        stack.context.performAndWait {
            let a = ctxInsert("Movie", into: stack.context, ["title": "Same"])
            let b = ctxInsert("Movie", into: stack.context, ["title": "Same"])
            #expect(a != b)
            #expect(a == a)
            #expect(Set([a, b, a]).count == 2)
            let byObject: [NSManagedObject: String] = [a: "a", b: "b"]
            #expect(byObject[a] == "a")
            #expect(byObject[b] == "b")
        }
    }

    @Test func hashStaysStableWhenTheIDBecomesPermanent() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let set: Set<NSManagedObject> = [movie]
            try stack.context.save()
            #expect(set.contains(movie))
        }
    }

    @Test func stateFlagsThroughInsertSaveUpdateDelete() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            #expect(movie.isInserted && !movie.isUpdated && !movie.isDeleted && movie.hasChanges)
            #expect(stack.context.hasChanges)

            try stack.context.save()
            #expect(!movie.isInserted && !movie.isUpdated && !movie.isDeleted && !movie.hasChanges)
            #expect(!stack.context.hasChanges)

            movie.setValue("Aliens", forKey: "title")
            #expect(!movie.isInserted && movie.isUpdated && !movie.isDeleted && movie.hasChanges)
            #expect(stack.context.updatedObjects == [movie])

            try stack.context.save()
            #expect(!movie.hasChanges)

            stack.context.delete(movie)
            #expect(movie.isDeleted && movie.hasChanges)
            #expect(stack.context.deletedObjects == [movie])
            try stack.context.save()
            #expect(!movie.isDeleted && !movie.hasChanges)
        }
    }

    @Test func changedValuesHoldsOnlyChangedKeysWithTheirNewValues() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979, "rating": 8.0])
            try stack.context.save()
            #expect(movie.changedValues().isEmpty)
            #expect(!movie.hasPersistentChangedValues)

            movie.setValue(1980, forKey: "year")
            movie.setValue(nil, forKey: "rating")
            let changed = movie.changedValues()
            #expect(Set(changed.keys) == ["year", "rating"])
            #expect(changed["year"] as? Int == 1980)
            #expect(changed["rating"] is NSNull)
            #expect(movie.hasPersistentChangedValues)

            try stack.context.save()
            #expect(movie.changedValues().isEmpty)
            #expect(!movie.hasPersistentChangedValues)
        }
    }

    @Test func changedValuesOfAnInsertedObjectHoldItsSetValues() throws {
        let stack = try movies()
        stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            #expect(movie.changedValues()["title"] as? String == "Alien")
        }
    }

    @Test func settingAnEqualValueUpdatesButChangesNothing() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            try stack.context.save()
            movie.setValue("Alien", forKey: "title")
            movie.setValue(NSNumber(value: 1979), forKey: "year")
            #expect(movie.isUpdated)
            #expect(movie.hasChanges)
            #expect(stack.context.hasChanges)
            #expect(stack.context.updatedObjects.contains(movie))
            #expect(movie.changedValues().isEmpty)
            #expect(!movie.hasPersistentChangedValues)
            try stack.context.save()
            #expect(!movie.isUpdated)
        }
    }

    @Test func changingAValueAndBackLeavesNoPersistentChange() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            movie.setValue("Aliens", forKey: "title")
            movie.setValue("Alien", forKey: "title")
            #expect(movie.changedValues().isEmpty)
            #expect(!movie.hasPersistentChangedValues)
        }
    }

    @Test func committedValuesAreTheLastSavedValues() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            let ripley = ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie])
            try stack.context.save()

            movie.setValue("Aliens", forKey: "title")
            movie.setValue(nil, forKey: "year")
            let committed = movie.committedValues(forKeys: ["title", "year"])
            #expect(committed["title"] as? String == "Alien")
            #expect(committed["year"] as? Int == 1979)
            #expect(committed.count == 2)

            let other = ctxInsert("Movie", into: stack.context, ["title": "Other"])
            ripley.setValue(other, forKey: "movie")
            #expect(ripley.committedValues(forKeys: ["movie"])["movie"] as? NSManagedObject === movie)

            let all = movie.committedValues(forKeys: nil)
            #expect(Set(all.keys).isSuperset(of: ["title", "year", "rating", "released", "characters"]))
            #expect(all["rating"] is NSNull)
        }
    }

    @Test func readingStateDoesNotFireAFault() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let movie = try #require(try ctxFetch("Movie", in: reopened.context).first)
            #expect(movie.isFault)
            _ = movie.objectID
            _ = movie.isDeleted
            _ = movie.isInserted
            _ = movie.isUpdated
            _ = movie.entity
            _ = movie.managedObjectContext
            _ = movie.hasFault(forRelationshipNamed: "characters")
            #expect(movie.isFault)
            _ = movie.value(forKey: "title")
            #expect(!movie.isFault)
        }
    }

    @Test func returnsObjectsAsFaultsFalseGivesRealizedObjects() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.returnsObjectsAsFaults = false
            let movie = try #require(try reopened.context.fetch(request).first)
            #expect(!movie.isFault)
        }
    }

    @Test func changesToAnotherObjectDoNotUpdateThisOne() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let a = ctxInsert("Movie", into: stack.context, ["title": "A"])
            let b = ctxInsert("Movie", into: stack.context, ["title": "B"])
            try stack.context.save()
            a.setValue("A2", forKey: "title")
            #expect(!b.isUpdated)
            #expect(stack.context.updatedObjects == [a])
        }
    }

    /// An inserted object that outlives its context, coordinator and model (as one in a
    /// validation error's `userInfo` does) still knows its entity and describes itself.
    @Test func anObjectOutlivesItsModel() throws {
        func orphan() -> NSManagedObject {
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = NSPersistentStoreCoordinator(managedObjectModel: MovieModel.make())
            return context.performAndWait { NSEntityDescription.insertNewObject(forEntityName: "Movie", into: context) }
        }
        let movie = orphan()
        #expect(movie.managedObjectContext == nil)
        #expect(movie.entity.name == "Movie")
        #expect(movie.description.contains("entity: Movie"))
    }
}
