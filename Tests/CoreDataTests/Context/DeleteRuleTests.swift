import CoreData
import Testing

/// Delete rules and delete propagation (MOC-2, MOC-3, MOC-17, MOC-18, MOC-19): nullify, cascade
/// (recursive), deny (a save-time validation error 1600), no action; propagation happens at
/// `processPendingChanges()` or save, not inside `delete(_:)`; unsaved objects simply vanish.
@Suite struct DeleteRuleTests {
    private func graph() throws -> CtxStack {
        try CtxStack(model: CtxGraphModel.make())
    }

    private func movies() throws -> CtxStack {
        try CtxStack(model: MovieModel.make())
    }

    // MARK: Nullify

    @Test func nullifyRemovesTheDeletedObjectFromItsDestinations() throws {
        let stack = try graph()
        try stack.context.performAndWait { () throws in
            let alice = ctxInsert("Person", into: stack.context, ["name": "Alice"])
            let rex = ctxInsert("Pet", into: stack.context, ["name": "Rex", "owner": alice])
            let chess = ctxInsert("Club", into: stack.context, ["name": "Chess"])
            alice.setValue(NSSet(array: [chess]), forKey: "clubs")
            try stack.context.save()

            stack.context.delete(alice)
            #expect(alice.isDeleted)
            // Propagation waits for the end of the event.
            #expect(rex.value(forKey: "owner") as? NSManagedObject === alice)
            stack.context.processPendingChanges()
            #expect(rex.value(forKey: "owner") == nil)
            #expect(!ctxContains(chess.value(forKey: "members"), alice))
            #expect(!rex.isDeleted)
            #expect(stack.context.updatedObjects.contains(rex))
            #expect(stack.context.deletedObjects == [alice])
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            #expect(try ctxStoredCount("Person", in: reopened.context) == 0)
            let rex = try #require(try ctxFetch("Pet", in: reopened.context).first)
            #expect(rex.value(forKey: "owner") == nil)
            let chess = try #require(try ctxFetch("Club", in: reopened.context).first)
            #expect(ctxObjects(chess.value(forKey: "members")).isEmpty)
        }
    }

    @Test func deletingTheToOneSideNullifiesTheToMany() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let ripley = ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie])
            let ash = ctxInsert("Character", into: stack.context, ["name": "Ash", "movie": movie])
            try stack.context.save()
            stack.context.delete(ash)
            stack.context.processPendingChanges()
            #expect(ctxObjects(movie.value(forKey: "characters")).map(ObjectIdentifier.init) == [ObjectIdentifier(ripley)])
            #expect(!movie.isDeleted)
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let movie = try #require(try ctxFetch("Movie", in: reopened.context).first)
            #expect(ctxObjects(movie.value(forKey: "characters")).compactMap { $0.value(forKey: "name") as? String } == ["Ripley"])
        }
    }

    @Test func nullifyLoadsAToManyThatIsStillAFault() throws {
        let stack = try graph()
        try stack.context.performAndWait { () throws in
            let alice = ctxInsert("Person", into: stack.context, ["name": "Alice"])
            ctxInsert("Pet", into: stack.context, ["name": "Rex", "owner": alice])
            ctxInsert("Pet", into: stack.context, ["name": "Tom", "owner": alice])
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            // Alice's pets were never loaded in this context.
            let alice = try #require(try ctxFetch("Person", in: reopened.context).first)
            reopened.context.delete(alice)
            try reopened.context.save()
        }
        let again = try reopened.reopened()
        try again.context.performAndWait { () throws in
            let pets = try ctxFetch("Pet", in: again.context)
            #expect(pets.count == 2)
            #expect(pets.allSatisfy { $0.value(forKey: "owner") == nil })
            #expect(try ctxFetch("Pet", in: again.context, "owner == nil").count == 2)
        }
    }

    @Test func deletingOneSideOfAManyToManyRemovesItsLinks() throws {
        let stack = try graph()
        try stack.context.performAndWait { () throws in
            let alice = ctxInsert("Person", into: stack.context, ["name": "Alice"])
            let chess = ctxInsert("Club", into: stack.context, ["name": "Chess"])
            let golf = ctxInsert("Club", into: stack.context, ["name": "Golf"])
            alice.setValue(NSSet(array: [chess, golf]), forKey: "clubs")
            try stack.context.save()
            stack.context.delete(chess)
            stack.context.processPendingChanges()
            #expect(ctxObjects(alice.value(forKey: "clubs")).map(ObjectIdentifier.init) == [ObjectIdentifier(golf)])
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let alice = try #require(try ctxFetch("Person", in: reopened.context).first)
            #expect(ctxObjects(alice.value(forKey: "clubs")).compactMap { $0.value(forKey: "name") as? String } == ["Golf"])
            #expect(try ctxFetch("Person", in: reopened.context, "clubs.@count == 1").count == 1)
        }
    }

    @Test func propagationWaitsForSaveWhenNotAtEndOfEvent() throws {
        let stack = try graph()
        try stack.context.performAndWait { () throws in
            stack.context.propagatesDeletesAtEndOfEvent = false
            let alice = ctxInsert("Person", into: stack.context)
            let rex = ctxInsert("Pet", into: stack.context, ["owner": alice])
            try stack.context.save()
            stack.context.delete(alice)
            stack.context.processPendingChanges()
            #expect(rex.value(forKey: "owner") as? NSManagedObject === alice)
            try stack.context.save()
            #expect(rex.value(forKey: "owner") == nil)
        }
    }

    // MARK: Cascade

    @Test func cascadeDeletesTheDestinations() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let ripley = ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie])
            let ash = ctxInsert("Character", into: stack.context, ["name": "Ash", "movie": movie])
            try stack.context.save()

            stack.context.delete(movie)
            #expect(!ripley.isDeleted)
            stack.context.processPendingChanges()
            #expect(ripley.isDeleted)
            #expect(ash.isDeleted)
            #expect(stack.context.deletedObjects == Set([movie, ripley, ash]))
            try stack.context.save()
        }
        #expect(try stack.storedCountAfterReopening("Movie") == 0)
        #expect(try stack.storedCountAfterReopening("Character") == 0)
    }

    @Test func cascadeIsRecursive() throws {
        let stack = try graph()
        try stack.context.performAndWait { () throws in
            let root = ctxInsert("Node", into: stack.context, ["name": "root"])
            let child = ctxInsert("Node", into: stack.context, ["name": "child", "parent": root])
            let grandchild = ctxInsert("Node", into: stack.context, ["name": "grandchild", "parent": child])
            let other = ctxInsert("Node", into: stack.context, ["name": "other"])
            try stack.context.save()

            stack.context.delete(root)
            stack.context.processPendingChanges()
            #expect(child.isDeleted)
            #expect(grandchild.isDeleted)
            #expect(!other.isDeleted)
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let names = try ctxFetch("Node", in: reopened.context).compactMap { $0.value(forKey: "name") as? String }
            #expect(names == ["other"])
        }
    }

    @Test func cascadeReachesDestinationsThatAreStillFaults() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            for name in ["Ripley", "Ash", "Dallas"] {
                ctxInsert("Character", into: stack.context, ["name": name, "movie": movie])
            }
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let movie = try #require(try ctxFetch("Movie", in: reopened.context).first)
            reopened.context.delete(movie)
            try reopened.context.save()
            #expect(try ctxStoredCount("Character", in: reopened.context) == 0)
        }
    }

    // MARK: Deny

    @Test func denyFailsTheSaveWith1600AndKeepsTheDelete() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let actor = ctxInsert("Actor", into: stack.context, ["name": "Sigourney Weaver"])
            let ripley = ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie, "actor": actor])
            try stack.context.save()

            // The in-memory delete succeeds.
            stack.context.delete(actor)
            #expect(actor.isDeleted)
            stack.context.processPendingChanges()
            #expect(actor.isDeleted)
            // Deny does not nullify: the role still points at the actor.
            #expect(ripley.value(forKey: "actor") as? NSManagedObject === actor)

            let error = ctxError { try stack.context.save() }
            #expect(error?.domain == NSCocoaErrorDomain)
            #expect(error?.code == NSValidationRelationshipDeniedDeleteError)
            #expect(error?.code == 1600)
            #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "roles")
            #expect(error?.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === actor)
            #expect(actor.isDeleted)
            #expect(stack.context.deletedObjects.contains(actor))
            #expect(stack.context.hasChanges)
        }
        #expect(try stack.storedCountAfterReopening("Actor") == 1)
    }

    @Test func denyAllowsTheDeleteOnceTheRelationshipIsEmpty() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let actor = ctxInsert("Actor", into: stack.context, ["name": "Sigourney Weaver"])
            let ripley = ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie, "actor": actor])
            try stack.context.save()
            stack.context.delete(actor)
            #expect(ctxError { try stack.context.save() }?.code == 1600)

            // Deleting the role too empties the deny relationship: the save goes through.
            stack.context.delete(ripley)
            try stack.context.save()
            #expect(!stack.context.hasChanges)
        }
        #expect(try stack.storedCountAfterReopening("Actor") == 0)
        #expect(try stack.storedCountAfterReopening("Character") == 0)
        #expect(try stack.storedCountAfterReopening("Movie") == 1)
    }

    @Test func denyWithAnEmptyRelationshipDeletes() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let actor = ctxInsert("Actor", into: stack.context, ["name": "Nobody"])
            try stack.context.save()
            stack.context.delete(actor)
            try stack.context.save()
            #expect(try ctxStoredCount("Actor", in: stack.context) == 0)
        }
    }

    @Test func deletingADeniedObjectWithItsCascadedRolesInOneSaveSucceeds() throws {
        // Deleting the movie cascades to its characters, whose nullify rule takes them out of the
        // actor's roles; the actor's deny rule then sees an empty relationship.
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let actor = ctxInsert("Actor", into: stack.context, ["name": "Sigourney Weaver"])
            ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie, "actor": actor])
            try stack.context.save()
            stack.context.delete(movie)
            stack.context.delete(actor)
            try stack.context.save()
        }
        #expect(try stack.storedCountAfterReopening("Actor") == 0)
        #expect(try stack.storedCountAfterReopening("Character") == 0)
    }

    // MARK: No action

    @Test func noActionLeavesDanglingReferences() throws {
        let stack = try graph()
        try stack.context.performAndWait { () throws in
            let folder = ctxInsert("Folder", into: stack.context, ["name": "Docs"])
            let file = ctxInsert("File", into: stack.context, ["name": "a.txt", "folder": folder])
            try stack.context.save()

            stack.context.delete(folder)
            stack.context.processPendingChanges()
            #expect(!file.isDeleted)
            #expect(file.value(forKey: "folder") as? NSManagedObject === folder)
            #expect(!stack.context.updatedObjects.contains(file))
        }
    }

    // MARK: Unsaved objects

    @Test func deletingAnUnsavedObjectRemovesItEntirely() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Never saved"])
            stack.context.delete(movie)
            stack.context.processPendingChanges()
            #expect(!stack.context.insertedObjects.contains(movie))
            #expect(!stack.context.deletedObjects.contains(movie))
            #expect(!stack.context.hasChanges)
            #expect(try ctxFetch("Movie", in: stack.context).isEmpty)
            try stack.context.save()
        }
        #expect(try stack.storedCountAfterReopening("Movie") == 0)
    }

    @Test func deletingAnUnsavedObjectCascadesToUnsavedDestinations() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Draft"])
            let ripley = ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie])
            let kept = ctxInsert("Movie", into: stack.context, ["title": "Kept"])
            stack.context.delete(movie)
            stack.context.processPendingChanges()
            #expect(stack.context.insertedObjects == [kept])
            #expect(stack.context.deletedObjects.isEmpty)
            #expect(!stack.context.insertedObjects.contains(ripley))
            try stack.context.save()
        }
        #expect(try stack.storedCountAfterReopening("Movie") == 1)
        #expect(try stack.storedCountAfterReopening("Character") == 0)
    }

    @Test func deletingAnUnsavedObjectNullifiesSavedDestinations() throws {
        let stack = try graph()
        try stack.context.performAndWait { () throws in
            let alice = ctxInsert("Person", into: stack.context, ["name": "Alice"])
            try stack.context.save()
            let rex = ctxInsert("Pet", into: stack.context, ["name": "Rex", "owner": alice])
            stack.context.delete(rex)
            stack.context.processPendingChanges()
            #expect(ctxObjects(alice.value(forKey: "pets")).isEmpty)
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            #expect(try ctxStoredCount("Pet", in: reopened.context) == 0)
            let alice = try #require(try ctxFetch("Person", in: reopened.context).first)
            #expect(ctxObjects(alice.value(forKey: "pets")).isEmpty)
        }
    }

    // MARK: Saved deletes

    @Test func aSavedDeleteIsGoneAfterReopenAndTheObjectIsNoLongerDeleted() throws {
        let stack = try movies()
        var movieID: NSManagedObjectID?
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            ctxInsert("Movie", into: stack.context, ["title": "Heat"])
            try stack.context.save()
            movieID = movie.objectID
            stack.context.delete(movie)
            #expect(movie.isDeleted)
            try stack.context.save()
            // MOC-3: isDeleted is true only until the save.
            #expect(!movie.isDeleted)
            #expect(stack.context.deletedObjects.isEmpty)
            #expect(!stack.context.hasChanges)
            #expect(try ctxFetch("Movie", in: stack.context).count == 1)
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let titles = try ctxFetch("Movie", in: reopened.context).compactMap { $0.value(forKey: "title") as? String }
            #expect(titles == ["Heat"])
            let uri = try #require(movieID?.uriRepresentation())
            let id = try #require(reopened.coordinator.managedObjectID(forURIRepresentation: uri))
            #expect(ctxError { _ = try reopened.context.existingObject(with: id) } != nil)
        }
    }

    @Test func deletedObjectsDisappearFromFetchesBeforeTheSave() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            stack.context.delete(movie)
            #expect(try ctxFetch("Movie", in: stack.context).isEmpty)
            #expect(try stack.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Movie")) == 0)
        }
    }

    @Test func deletingTwiceIsHarmless() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            stack.context.delete(movie)
            stack.context.delete(movie)
            stack.context.processPendingChanges()
            #expect(stack.context.deletedObjects == [movie])
            try stack.context.save()
            #expect(try ctxStoredCount("Movie", in: stack.context) == 0)
        }
    }
}
