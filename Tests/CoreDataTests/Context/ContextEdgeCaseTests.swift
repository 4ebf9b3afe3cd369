@testable import CoreData
import Testing

/// Edge cases of change tracking found in review: each failed before its fix.
@Suite struct ContextEdgeCaseTests {
    @Test func anObjectInsertedAgainAfterItsDeleteIsSaved() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            _ = movie.objectID
            stack.context.delete(movie)
            stack.context.processPendingChanges()
            #expect(!movie.isInserted && movie.managedObjectContext == nil)
            stack.context.insert(movie)
            #expect(movie.isInserted && movie.managedObjectContext === stack.context)
            #expect(stack.context.insertedObjects.count == 1)
            try stack.context.save()
            #expect(try ctxStoredCount("Movie", in: stack.context) == 1)
            #expect(stack.context.registeredObjects.contains(movie))
        }
    }

    @Test func committedValuesOfAFaultReadItsRow() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait {
            let movie = try #require(try ctxFetch("Movie", in: reopened.context).first)
            #expect(movie.isFault)
            let committed = movie.committedValues(forKeys: nil)
            #expect(committed["title"] as? String == "Alien")
            #expect(committed["year"] as? Int == 1979)
        }
    }

    @Test func rollbackForgetsAValueOfTheWrongType() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            try stack.context.save()
            movie.setValue("not a number", forKey: "year")
            stack.context.rollback()
            #expect(movie.value(forKey: "year") as? Int == 1979)
            movie.setValue("Aliens", forKey: "title")
            try stack.context.save()
        }
    }

    @Test func resetForgetsInsertedObjectsWhoseIDWasNeverRead() throws {
        let stack = try CtxStack(model: MovieModel.make(), storeType: NSInMemoryStoreType)
        stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            stack.context.reset()
            #expect(movie.managedObjectContext == nil)
            #expect(!stack.context.hasChanges)
            #expect(stack.context.insertedObjects.isEmpty)
        }
    }

    @Test func changesToAnObjectInsertedInAnEarlierEventAreReportedAsUpdates() throws {
        let stack = try CtxStack(model: MovieModel.make(), storeType: NSInMemoryStoreType)
        let recorder = CtxNotificationRecorder(.NSManagedObjectContextObjectsDidChange, object: stack.context)
        stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            stack.context.processPendingChanges()
            movie.setValue(1979, forKey: "year")
            stack.context.processPendingChanges()
            let notifications = recorder.notifications
            #expect(notifications.count == 2)
            #expect(ctxObjects(in: notifications[0], key: NSInsertedObjectsKey) == [movie])
            #expect(ctxObjects(in: notifications[1], key: NSUpdatedObjectsKey) == [movie])
            #expect(ctxObjects(in: notifications[1], key: NSInsertedObjectsKey).isEmpty)
        }
    }

    @Test func settingTheSameDestinationsInAnotherOrderIsNoChangeForAnUnorderedRelationship() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let ripley = ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie])
            let dallas = ctxInsert("Character", into: stack.context, ["name": "Dallas", "movie": movie])
            try stack.context.save()
            movie.setValue(NSSet(array: [dallas, ripley]), forKey: "characters")
            #expect(movie.changedValues().isEmpty)
            #expect(!movie.hasPersistentChangedValues)
        }
    }

    @Test func aFaultWhoseRowIsGoneDoesNotBlockLaterSaves() throws {
        let stack = try CtxStack(model: MovieModel.make())
        let identifier: NSManagedObjectID = try stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            return movie.objectID
        }
        let other = stack.newContext()
        try other.performAndWait {
            let movie = try #require(try ctxFetch("Movie", in: other).first)
            other.delete(movie)
            try other.save()
        }
        let reader = stack.newContext()
        try reader.performAndWait {
            let gone = reader.object(with: identifier)
            #expect(gone.value(forKey: "title") == nil)
            #expect(gone.isDeleted)
            ctxInsert("Movie", into: reader, ["title": "Arrival"])
            try reader.save()
            #expect(try ctxStoredCount("Movie", in: reader) == 1)
            #expect(gone.managedObjectContext == nil)
        }
    }
}
