import CoreData
import Testing

/// The context's undo support (MOC-7, MOC-8, MOC-31, MOC-32): each event's changes are one undo
/// step, registered when pending changes are processed; undo and redo restore inserts, deletes
/// (with what they cascaded to and nullified), attributes and both sides of relationships.
@Suite struct UndoTests {
    static let storeTypes = [NSSQLiteStoreType, NSInMemoryStoreType]

    /// A movie stack whose context has an undo manager.
    private func movies(_ storeType: String = NSSQLiteStoreType) throws -> (CtxStack, UndoManager) {
        let stack = try CtxStack(model: MovieModel.make(), storeType: storeType)
        let undoManager = UndoManager()
        stack.context.undoManager = undoManager
        return (stack, undoManager)
    }

    /// Saves a test's starting objects and forgets the undo step of their insert, so that the
    /// undo history starts after the setup.
    private func saveSetUp(_ stack: CtxStack) throws {
        try stack.context.save()
        stack.context.undoManager?.removeAllActions()
    }

    private func title(_ object: NSManagedObject) -> String? {
        object.value(forKey: "title") as? String
    }

    // MARK: Defaults and recording

    @Test func undoManagerIsNilByDefault() throws {
        let stack = try CtxStack(model: MovieModel.make())
        #expect(stack.context.undoManager == nil)
    }

    @Test func nothingIsRecordedWithoutAnUndoManager() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            movie.setValue("Aliens", forKey: "title")
            stack.context.undo()
            #expect(title(movie) == "Aliens")

            // Changes made before the context had an undo manager are not undoable.
            let undoManager = UndoManager()
            stack.context.undoManager = undoManager
            stack.context.processPendingChanges()
            #expect(!undoManager.canUndo)
            stack.context.undo()
            #expect(title(movie) == "Aliens")
        }
    }

    @Test func disableUndoRegistrationSuppressesRecording() throws {
        let (stack, undoManager) = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            try saveSetUp(stack)

            undoManager.disableUndoRegistration()
            movie.setValue("Aliens", forKey: "title")
            stack.context.processPendingChanges()
            undoManager.enableUndoRegistration()
            #expect(!undoManager.canUndo)

            // Within one event, only the change made while registration is enabled is undone.
            undoManager.disableUndoRegistration()
            movie.setValue("Alien 3", forKey: "title")
            undoManager.enableUndoRegistration()
            movie.setValue(1992, forKey: "year")
            stack.context.undo()
            #expect(title(movie) == "Alien 3")
            #expect(movie.value(forKey: "year") as? Int == 1979)
        }
    }

    // MARK: Inserts and deletes

    @Test(arguments: storeTypes) func undoAndRedoAnInsert(storeType: String) throws {
        let (stack, undoManager) = try movies(storeType)
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            stack.context.processPendingChanges()
            #expect(undoManager.canUndo)

            stack.context.undo()
            #expect(!movie.isInserted)
            #expect(stack.context.insertedObjects.isEmpty)
            #expect(!stack.context.hasChanges)
            #expect(try ctxFetch("Movie", in: stack.context).isEmpty)

            stack.context.redo()
            #expect(movie.isInserted)
            #expect(movie.managedObjectContext === stack.context)
            #expect(stack.context.insertedObjects == [movie])
            #expect(title(movie) == "Alien")
            #expect(try ctxFetch("Movie", in: stack.context) == [movie])
            try stack.context.save()
            #expect(try ctxStoredCount("Movie", in: stack.context) == 1)
        }
    }

    @Test func undoAndRedoTheInsertOfRelatedObjects() throws {
        let (stack, _) = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let ripley = ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie])
            stack.context.undo()
            #expect(stack.context.insertedObjects.isEmpty)

            stack.context.redo()
            #expect(stack.context.insertedObjects == [movie, ripley])
            #expect(ripley.value(forKey: "movie") as? NSManagedObject === movie)
            #expect(ctxObjects(movie.value(forKey: "characters")) == [ripley])
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let ripley = try #require(try ctxFetch("Character", in: reopened.context).first)
            #expect((ripley.value(forKey: "movie") as? NSManagedObject).flatMap(title) == "Alien")
        }
    }

    @Test func undoingAnInsertRestoresTheInverseOfExistingObjects() throws {
        let (stack, _) = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            let ripley = ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie])
            #expect(ctxContains(movie.value(forKey: "characters"), ripley))

            stack.context.undo()
            #expect(ctxObjects(movie.value(forKey: "characters")).isEmpty)
            #expect(!movie.hasChanges)
            #expect(!stack.context.hasChanges)

            stack.context.redo()
            #expect(ripley.isInserted)
            #expect(ripley.value(forKey: "movie") as? NSManagedObject === movie)
            #expect(ctxContains(movie.value(forKey: "characters"), ripley))
        }
    }

    @Test(arguments: storeTypes) func undoAndRedoADeleteWithCascadeAndNullify(storeType: String) throws {
        let (stack, _) = try movies(storeType)
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let actor = ctxInsert("Actor", into: stack.context, ["name": "Sigourney Weaver"])
            let ripley = ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie, "actor": actor])
            let dallas = ctxInsert("Character", into: stack.context, ["name": "Dallas", "movie": movie])
            try stack.context.save()

            stack.context.delete(movie)
            stack.context.processPendingChanges()
            #expect(ripley.isDeleted && dallas.isDeleted)
            #expect(ctxObjects(actor.value(forKey: "roles")).isEmpty)

            stack.context.undo()
            #expect(!movie.isDeleted && !ripley.isDeleted && !dallas.isDeleted)
            #expect(stack.context.deletedObjects.isEmpty)
            #expect(Set(ctxObjects(movie.value(forKey: "characters"))) == [ripley, dallas])
            #expect(ripley.value(forKey: "movie") as? NSManagedObject === movie)
            #expect(ripley.value(forKey: "actor") as? NSManagedObject === actor)
            #expect(ctxObjects(actor.value(forKey: "roles")) == [ripley])
            #expect(!stack.context.hasChanges)

            stack.context.redo()
            #expect(movie.isDeleted && ripley.isDeleted && dallas.isDeleted)
            #expect(ctxObjects(actor.value(forKey: "roles")).isEmpty)
            try stack.context.save()
            #expect(try ctxStoredCount("Movie", in: stack.context) == 0)
            #expect(try ctxStoredCount("Character", in: stack.context) == 0)
            #expect(try ctxStoredCount("Actor", in: stack.context) == 1)
        }
    }

    @Test func undoingTheDeleteOfAnUnsavedObjectInsertsItAgain() throws {
        let (stack, _) = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let ripley = ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie])
            stack.context.processPendingChanges()

            stack.context.delete(movie)
            stack.context.processPendingChanges()
            #expect(stack.context.insertedObjects.isEmpty)

            stack.context.undo()
            #expect(stack.context.insertedObjects == [movie, ripley])
            #expect(ripley.value(forKey: "movie") as? NSManagedObject === movie)
            try stack.context.save()
            #expect(try ctxStoredCount("Character", in: stack.context) == 1)
        }
    }

    // MARK: Attributes and relationships

    @Test(arguments: storeTypes) func undoAndRedoAnAttributeChange(storeType: String) throws {
        let (stack, _) = try movies(storeType)
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()

            movie.setValue("Aliens", forKey: "title")
            stack.context.undo()
            #expect(title(movie) == "Alien")
            // Back to its saved state, the object has no changes left.
            #expect(!movie.isUpdated)
            #expect(movie.changedValues().isEmpty)
            #expect(!stack.context.hasChanges)

            stack.context.redo()
            #expect(title(movie) == "Aliens")
            #expect(movie.isUpdated)
            #expect(movie.changedValues()["title"] as? String == "Aliens")
        }
    }

    @Test func undoingAChangeToADirtyObjectKeepsItDirty() throws {
        let (stack, _) = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            try stack.context.save()
            movie.setValue(1986, forKey: "year")
            stack.context.processPendingChanges()
            movie.setValue("Aliens", forKey: "title")
            stack.context.undo()
            #expect(title(movie) == "Alien")
            #expect(movie.isUpdated)
            #expect(movie.changedValues().keys.sorted() == ["year"])
        }
    }

    @Test func undoRestoresAnObjectTurnedIntoAFault() throws {
        let (stack, _) = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try saveSetUp(stack)
            movie.setValue("Aliens", forKey: "title")
            stack.context.processPendingChanges()
            movie.setValue("Alien 3", forKey: "title")
            stack.context.processPendingChanges()
            stack.context.refresh(movie, mergeChanges: false)
            #expect(movie.isFault)

            // The undo loads the fault's values, then restores the title the second event replaced.
            stack.context.undo()
            #expect(title(movie) == "Aliens")
            #expect(movie.changedValues()["title"] as? String == "Aliens")
            stack.context.undo()
            #expect(title(movie) == "Alien")
            #expect(!movie.hasChanges)
        }
    }

    @Test func undoAndRedoAToOneChangeRestoresBothInverses() throws {
        let (stack, _) = try movies()
        try stack.context.performAndWait { () throws in
            let alien = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let aliens = ctxInsert("Movie", into: stack.context, ["title": "Aliens"])
            let ripley = ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": alien])
            try stack.context.save()

            ripley.setValue(aliens, forKey: "movie")
            #expect(ctxObjects(alien.value(forKey: "characters")).isEmpty)
            stack.context.undo()
            #expect(ripley.value(forKey: "movie") as? NSManagedObject === alien)
            #expect(ctxObjects(alien.value(forKey: "characters")) == [ripley])
            #expect(ctxObjects(aliens.value(forKey: "characters")).isEmpty)
            #expect(!stack.context.hasChanges)

            stack.context.redo()
            #expect(ripley.value(forKey: "movie") as? NSManagedObject === aliens)
            #expect(ctxObjects(alien.value(forKey: "characters")).isEmpty)
            #expect(ctxObjects(aliens.value(forKey: "characters")) == [ripley])
        }
    }

    @Test(arguments: storeTypes) func undoAndRedoToManyAddAndRemove(storeType: String) throws {
        let (stack, _) = try movies(storeType)
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let ripley = ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie])
            let dallas = ctxInsert("Character", into: stack.context, ["name": "Dallas"])
            try stack.context.save()

            let characters = movie.mutableSetValue(forKey: "characters")
            characters.add(dallas)
            characters.remove(ripley)
            stack.context.undo()
            #expect(ctxObjects(movie.value(forKey: "characters")) == [ripley])
            #expect(ripley.value(forKey: "movie") as? NSManagedObject === movie)
            #expect(dallas.value(forKey: "movie") == nil)

            stack.context.redo()
            #expect(ctxObjects(movie.value(forKey: "characters")) == [dallas])
            #expect(dallas.value(forKey: "movie") as? NSManagedObject === movie)
            #expect(ripley.value(forKey: "movie") == nil)
            try stack.context.save()
            #expect(try ctxFetch("Character", in: stack.context, "movie == %@", [movie]) == [dallas])
        }
    }

    @Test func primitiveSettersAreUndoableBetweenWillAndDidChange() throws {
        let (stack, undoManager) = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try saveSetUp(stack)

            // As on Apple platforms, a bare primitive setter is not recorded...
            movie.setPrimitiveValue("Draft", forKey: "title")
            stack.context.processPendingChanges()
            #expect(!undoManager.canUndo)

            // ...but a custom accessor's willChange/setPrimitive/didChange is.
            movie.willChangeValue(forKey: "title")
            movie.setPrimitiveValue("Aliens", forKey: "title")
            movie.didChangeValue(forKey: "title")
            stack.context.undo()
            #expect(title(movie) == "Draft")
        }
    }

    // MARK: Events and groups

    @Test func severalChangesInOneEventAreOneUndoStep() throws {
        let (stack, undoManager) = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            try saveSetUp(stack)

            movie.setValue("Aliens", forKey: "title")
            movie.setValue(1986, forKey: "year")
            let hicks = ctxInsert("Character", into: stack.context, ["name": "Hicks", "movie": movie])
            stack.context.processPendingChanges()

            stack.context.undo()
            #expect(title(movie) == "Alien")
            #expect(movie.value(forKey: "year") as? Int == 1979)
            #expect(!hicks.isInserted)
            #expect(ctxObjects(movie.value(forKey: "characters")).isEmpty)
            #expect(!undoManager.canUndo)
        }
    }

    @Test func twoEventsAreTwoUndoSteps() throws {
        let (stack, undoManager) = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try saveSetUp(stack)

            movie.setValue("Aliens", forKey: "title")
            stack.context.processPendingChanges()
            movie.setValue("Alien 3", forKey: "title")
            stack.context.processPendingChanges()

            stack.context.undo()
            #expect(title(movie) == "Aliens")
            stack.context.undo()
            #expect(title(movie) == "Alien")
            #expect(!undoManager.canUndo)
            stack.context.redo()
            #expect(title(movie) == "Aliens")
            stack.context.redo()
            #expect(title(movie) == "Alien 3")
        }
    }

    @Test func anExplicitGroupSpansEvents() throws {
        let (stack, undoManager) = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            try saveSetUp(stack)

            undoManager.beginUndoGrouping()
            movie.setValue("Aliens", forKey: "title")
            stack.context.processPendingChanges()
            movie.setValue(1986, forKey: "year")
            // Closing the group posts a checkpoint, at which the context registers the second
            // event without being asked to process its pending changes.
            undoManager.endUndoGrouping()

            undoManager.undo()
            #expect(title(movie) == "Alien")
            #expect(movie.value(forKey: "year") as? Int == 1979)
            #expect(!undoManager.canUndo)
            undoManager.redo()
            #expect(title(movie) == "Aliens")
            #expect(movie.value(forKey: "year") as? Int == 1986)
        }
    }

    @Test func actionNamesNameTheEventsStep() throws {
        let (stack, undoManager) = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try saveSetUp(stack)

            undoManager.setActionName("Rename")
            movie.setValue("Aliens", forKey: "title")
            stack.context.processPendingChanges()
            movie.setValue(1986, forKey: "year")
            undoManager.setActionName("Set Year")
            stack.context.processPendingChanges()

            #expect(undoManager.undoActionName == "Set Year")
            stack.context.undo()
            #expect(undoManager.undoActionName == "Rename")
            #expect(undoManager.redoActionName == "Set Year")
            #expect(undoManager.redoMenuItemTitle == "Redo Set Year")
        }
    }

    @Test func canUndoAndCanRedoFollowTheStacks() throws {
        let (stack, undoManager) = try movies()
        try stack.context.performAndWait { () throws in
            #expect(!undoManager.canUndo && !undoManager.canRedo)
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            stack.context.processPendingChanges()
            #expect(undoManager.canUndo && !undoManager.canRedo)

            stack.context.undo()
            #expect(!undoManager.canUndo && undoManager.canRedo)
            stack.context.redo()
            #expect(undoManager.canUndo && !undoManager.canRedo)

            stack.context.undo()
            #expect(undoManager.canRedo)
            // A new change clears the redo stack: canRedo registers pending changes first.
            _ = ctxInsert("Movie", into: stack.context, ["title": "Heat"])
            #expect(!undoManager.canRedo)
            stack.context.redo()
            #expect(!movie.isInserted)
        }
    }

    @Test func levelsOfUndoLimitTheSteps() throws {
        let (stack, undoManager) = try movies()
        try stack.context.performAndWait { () throws in
            undoManager.levelsOfUndo = 2
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try saveSetUp(stack)
            for title in ["Aliens", "Alien 3", "Alien Resurrection"] {
                movie.setValue(title, forKey: "title")
                stack.context.processPendingChanges()
            }
            stack.context.undo()
            stack.context.undo()
            #expect(!undoManager.canUndo)
            stack.context.undo()
            #expect(title(movie) == "Aliens")
        }
    }

    @Test func undoProcessesPendingChangesFirst() throws {
        let (stack, _) = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            movie.setValue("Aliens", forKey: "title")
            stack.context.processPendingChanges()
            movie.setValue("Alien 3", forKey: "title")
            // The unprocessed change is its own step, undone first.
            stack.context.undo()
            #expect(title(movie) == "Aliens")
        }
    }

    @Test func eachPerformBlockIsAnEvent() async throws {
        let (stack, undoManager) = try movies()
        let context = stack.context
        let id = try context.performAndWait { () throws -> NSManagedObjectID in
            let movie = ctxInsert("Movie", into: context, ["title": "Alien"])
            try context.save()
            return movie.objectID
        }
        await context.perform { context.object(with: id).setValue("Aliens", forKey: "title") }
        await context.perform { context.object(with: id).setValue("Alien 3", forKey: "title") }
        context.performAndWait {
            // Each block's pending changes were processed when it ended: two closed steps.
            #expect(undoManager.groupingLevel == 0)
            context.undo()
            #expect(title(context.object(with: id)) == "Aliens")
        }
    }

    // MARK: Notifications and current event

    @Test func undoPostsObjectsDidChange() throws {
        let (stack, _) = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            movie.setValue("Aliens", forKey: "title")
            let heat = ctxInsert("Movie", into: stack.context, ["title": "Heat"])
            stack.context.processPendingChanges()

            let recorder = CtxNotificationRecorder(.NSManagedObjectContextObjectsDidChange, object: stack.context)
            stack.context.undo()
            recorder.stop()
            let note = try #require(recorder.notifications.last)
            // Back to its saved state, the movie is still reported: observers must refresh it.
            #expect(ctxObjects(in: note, key: NSUpdatedObjectsKey) == [movie])
            #expect(ctxObjects(in: note, key: NSInsertedObjectsKey).isEmpty)
            #expect(!heat.isInserted)
        }
    }

    @Test func changedValuesForCurrentEventTellsEventsApart() throws {
        let (stack, _) = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            try stack.context.save()
            movie.setValue("Aliens", forKey: "title")
            stack.context.processPendingChanges()
            movie.setValue(1986, forKey: "year")
            #expect(movie.changedValuesForCurrentEvent().keys.sorted() == ["year"])
            #expect(movie.changedValues().keys.sorted() == ["title", "year"])
        }
    }

    // MARK: Save, rollback, reset

    @Test(arguments: storeTypes) func undoAfterASaveMakesAChangeToSave(storeType: String) throws {
        let (stack, undoManager) = try movies(storeType)
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            movie.setValue("Aliens", forKey: "title")
            try stack.context.save()
            // A save keeps the undo stack.
            #expect(undoManager.canUndo)

            stack.context.undo()
            #expect(title(movie) == "Alien")
            #expect(movie.isUpdated)
            try stack.context.save()
            #expect(try ctxFetch("Movie", in: stack.context, "title == 'Alien'").count == 1)

            // Undoing the insert deletes the saved object.
            stack.context.undo()
            #expect(movie.isDeleted)
            try stack.context.save()
            #expect(try ctxStoredCount("Movie", in: stack.context) == 0)

            // Redoing it inserts the object again, with the same ID.
            stack.context.redo()
            #expect(movie.isInserted)
            try stack.context.save()
            #expect(try ctxStoredCount("Movie", in: stack.context) == 1)
        }
        if storeType == NSSQLiteStoreType {
            let reopened = try stack.reopened()
            try reopened.context.performAndWait { () throws in
                #expect(try ctxFetch("Movie", in: reopened.context).compactMap(title) == ["Alien"])
            }
        }
    }

    @Test func undoAfterSavingADeleteInsertsTheObjectsAgain() throws {
        let (stack, _) = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let actor = ctxInsert("Actor", into: stack.context, ["name": "Sigourney Weaver"])
            let ripley = ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie, "actor": actor])
            try stack.context.save()
            stack.context.delete(movie)
            try stack.context.save()

            stack.context.undo()
            #expect(movie.isInserted && ripley.isInserted)
            #expect(ctxObjects(actor.value(forKey: "roles")) == [ripley])
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let actor = try #require(try ctxFetch("Actor", in: reopened.context).first)
            let roles = ctxObjects(actor.value(forKey: "roles"))
            #expect(roles.map { $0.value(forKey: "name") as? String } == ["Ripley"])
            #expect((roles.first?.value(forKey: "movie") as? NSManagedObject).flatMap(title) == "Alien")
        }
    }

    @Test func undoingASavedInsertDeletesTheObjectWithoutItsRelationships() throws {
        let (stack, _) = try movies()
        try stack.context.performAndWait { () throws in
            let ripley = ctxInsert("Character", into: stack.context, ["name": "Ripley"])
            try saveSetUp(stack)
            let actor = ctxInsert("Actor", into: stack.context, ["name": "Sigourney Weaver"])
            ripley.setValue(actor, forKey: "actor")
            try stack.context.save()

            stack.context.undo()
            #expect(actor.isDeleted)
            #expect(ripley.value(forKey: "actor") == nil)
            // The actor's roles (deny rule) no longer hold Ripley, so its delete can be saved.
            #expect(ctxObjects(actor.value(forKey: "roles")).isEmpty)
            try stack.context.save()
            #expect(try ctxStoredCount("Actor", in: stack.context) == 0)

            stack.context.redo()
            #expect(actor.isInserted)
            #expect(ripley.value(forKey: "actor") as? NSManagedObject === actor)
            #expect(ctxObjects(actor.value(forKey: "roles")) == [ripley])
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let ripley = try #require(try ctxFetch("Character", in: reopened.context).first)
            #expect((ripley.value(forKey: "actor") as? NSManagedObject)?.value(forKey: "name") as? String == "Sigourney Weaver")
        }
    }

    @Test func rollbackEmptiesTheUndoStack() throws {
        let (stack, undoManager) = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try saveSetUp(stack)
            movie.setValue("Aliens", forKey: "title")
            stack.context.processPendingChanges()
            movie.setValue("Alien 3", forKey: "title")
            stack.context.rollback()
            #expect(!undoManager.canUndo)
            stack.context.processPendingChanges()
            #expect(!undoManager.canUndo)
            #expect(title(movie) == "Alien")
        }
    }

    @Test func resetEmptiesTheUndoStack() throws {
        let (stack, undoManager) = try movies()
        try stack.context.performAndWait { () throws in
            _ = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            stack.context.processPendingChanges()
            stack.context.reset()
            #expect(!undoManager.canUndo)
            #expect(!undoManager.canRedo)
        }
    }
}
