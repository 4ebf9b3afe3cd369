import CoreData
import Testing

/// rollback(), reset() and refresh(_:mergeChanges:) (MOC-30, MOC-31, MOC-32, FLT-6).
@Suite struct RollbackResetTests {
    private func movies() throws -> CtxStack {
        try CtxStack(model: MovieModel.make())
    }

    // MARK: rollback

    @Test func rollbackDiscardsInserts() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Draft"])
            stack.context.rollback()
            #expect(stack.context.insertedObjects.isEmpty)
            #expect(!stack.context.hasChanges)
            #expect(!movie.isInserted)
            #expect(stack.context.registeredObject(for: movie.objectID) == nil)
            #expect(try ctxFetch("Movie", in: stack.context).isEmpty)
            try stack.context.save()
            #expect(try ctxStoredCount("Movie", in: stack.context) == 0)
        }
    }

    @Test func rollbackRestoresCommittedAttributeValues() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            try stack.context.save()
            movie.setValue("Aliens", forKey: "title")
            movie.setValue(1986, forKey: "year")
            stack.context.rollback()
            #expect(movie.value(forKey: "title") as? String == "Alien")
            #expect(movie.value(forKey: "year") as? Int == 1979)
            #expect(!movie.isUpdated)
            #expect(!movie.hasChanges)
            #expect(movie.changedValues().isEmpty)
            #expect(stack.context.updatedObjects.isEmpty)
            #expect(!stack.context.hasChanges)
        }
    }

    @Test func rollbackDoesNotRefetch() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            _ = movie.value(forKey: "title")
            let id = movie.objectID

            // Another coordinator changes the row behind this context's back.
            let other = try stack.reopened()
            try other.context.performAndWait { () throws in
                let external = try other.context.existingObject(with: try #require(other.coordinator.managedObjectID(forURIRepresentation: id.uriRepresentation())))
                external.setValue("Changed elsewhere", forKey: "title")
                try other.context.save()
            }

            movie.setValue("Local edit", forKey: "title")
            stack.context.rollback()
            // Rollback goes back to the context's own last committed state, not to the store.
            #expect(movie.value(forKey: "title") as? String == "Alien")
        }
    }

    @Test func rollbackUndoesDeletesAndTheirPropagation() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let ripley = ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie])
            let actor = ctxInsert("Actor", into: stack.context, ["name": "Sigourney Weaver"])
            let dallas = ctxInsert("Character", into: stack.context, ["name": "Dallas", "actor": actor])
            try stack.context.save()

            stack.context.delete(movie)
            stack.context.delete(dallas)
            stack.context.processPendingChanges()
            #expect(ripley.isDeleted)
            #expect(ctxObjects(actor.value(forKey: "roles")).isEmpty)

            stack.context.rollback()
            #expect(!movie.isDeleted)
            #expect(!ripley.isDeleted)
            #expect(!dallas.isDeleted)
            #expect(stack.context.deletedObjects.isEmpty)
            #expect(!stack.context.hasChanges)
            #expect(ctxContains(movie.value(forKey: "characters"), ripley))
            #expect(ripley.value(forKey: "movie") as? NSManagedObject === movie)
            #expect(ctxContains(actor.value(forKey: "roles"), dallas))
            #expect(dallas.value(forKey: "actor") as? NSManagedObject === actor)
            try stack.context.save()
        }
        #expect(try stack.storedCountAfterReopening("Movie") == 1)
        #expect(try stack.storedCountAfterReopening("Character") == 2)
    }

    @Test func rollbackRestoresRelationshipsOnBothSides() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let alien = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let heat = ctxInsert("Movie", into: stack.context, ["title": "Heat"])
            let ripley = ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": alien])
            try stack.context.save()

            ripley.setValue(heat, forKey: "movie")
            stack.context.rollback()
            #expect(ripley.value(forKey: "movie") as? NSManagedObject === alien)
            #expect(ctxContains(alien.value(forKey: "characters"), ripley))
            #expect(!ctxContains(heat.value(forKey: "characters"), ripley))
        }
    }

    @Test func rollbackRemovesInsertedObjectsFromSavedObjectsRelationships() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let alien = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": alien])
            stack.context.rollback()
            #expect(ctxObjects(alien.value(forKey: "characters")).isEmpty)
            #expect(!alien.isUpdated)
        }
    }

    // MARK: reset

    @Test func resetForgetsEveryRegisteredObject() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let saved = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            let savedID = saved.objectID
            ctxInsert("Movie", into: stack.context, ["title": "Unsaved"])
            #expect(!stack.context.registeredObjects.isEmpty)

            stack.context.reset()
            #expect(stack.context.registeredObjects.isEmpty)
            #expect(stack.context.insertedObjects.isEmpty)
            #expect(!stack.context.hasChanges)
            #expect(stack.context.registeredObject(for: savedID) == nil)

            // Fetching again gives new instances; the unsaved insert is gone.
            let movies = try ctxFetch("Movie", in: stack.context)
            #expect(movies.count == 1)
            #expect(movies.first !== saved)
            #expect(movies.first?.objectID == savedID)
            #expect(movies.first?.value(forKey: "title") as? String == "Alien")
        }
    }

    @Test func resetPostsObjectsDidChangeWithInvalidatedAll() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            let recorder = CtxNotificationRecorder(.NSManagedObjectContextObjectsDidChange, object: stack.context)
            stack.context.reset()
            recorder.stop()
            let notes = recorder.notifications
            #expect(notes.count == 1)
            #expect(notes.first?.object as AnyObject? === stack.context)
            #expect(notes.first?.userInfo?[NSInvalidatedAllObjectsKey] != nil)
        }
    }

    @Test func resetDiscardsPendingChangesForGood() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            movie.setValue("Edited", forKey: "title")
            stack.context.reset()
            try stack.context.save()
            let again = try ctxFetch("Movie", in: stack.context)
            #expect(again.first?.value(forKey: "title") as? String == "Alien")
        }
    }

    // MARK: refresh

    @Test func refreshWithoutMergingTurnsTheObjectIntoAFaultAndDropsChanges() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            movie.setValue("Edited", forKey: "title")
            #expect(movie.isUpdated)

            stack.context.refresh(movie, mergeChanges: false)
            #expect(movie.isFault)
            #expect(!movie.isUpdated)
            #expect(!movie.hasChanges)
            #expect(!stack.context.hasChanges)
            #expect(stack.context.updatedObjects.isEmpty)
            #expect(movie.value(forKey: "title") as? String == "Alien")
            #expect(!movie.isFault)
        }
    }

    @Test func refreshWithoutMergingPicksUpTheStoresValues() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            try stack.context.save()

            // A second context on the same coordinator saves a change.
            let other = stack.newContext()
            try other.performAndWait { () throws in
                let copy = try other.existingObject(with: movie.objectID)
                copy.setValue(2000, forKey: "year")
                try other.save()
            }
            stack.context.refresh(movie, mergeChanges: false)
            #expect(movie.value(forKey: "year") as? Int == 2000)
        }
    }

    @Test func refreshMergingChangesKeepsLocalChangesOverStoreValues() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            try stack.context.save()

            let other = stack.newContext()
            try other.performAndWait { () throws in
                let copy = try other.existingObject(with: movie.objectID)
                copy.setValue(2000, forKey: "year")
                try other.save()
            }

            movie.setValue("Alien: Director's Cut", forKey: "title")
            stack.context.refresh(movie, mergeChanges: true)
            #expect(movie.value(forKey: "title") as? String == "Alien: Director's Cut")
            #expect(movie.value(forKey: "year") as? Int == 2000)
            #expect(movie.isUpdated)
            #expect(stack.context.hasChanges)
            #expect(movie.changedValues()["title"] as? String == "Alien: Director's Cut")
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let movie = try #require(try ctxFetch("Movie", in: reopened.context).first)
            #expect(movie.value(forKey: "title") as? String == "Alien: Director's Cut")
            #expect(movie.value(forKey: "year") as? Int == 2000)
        }
    }

    @Test func refreshAllObjectsKeepsChanges() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let heat = ctxInsert("Movie", into: stack.context, ["title": "Heat"])
            try stack.context.save()
            movie.setValue("Edited", forKey: "title")
            stack.context.refreshAllObjects()
            #expect(movie.value(forKey: "title") as? String == "Edited")
            #expect(movie.isUpdated)
            #expect(heat.value(forKey: "title") as? String == "Heat")
        }
    }
}
