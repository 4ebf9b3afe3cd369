@testable import CoreData
import Testing

/// Merging other contexts' saves (spec MOC-27 to MOC-29): `mergeChanges(fromContextDidSave:)`,
/// `mergeChanges(fromRemoteContextSave:into:)` and `automaticallyMergesChangesFromParent`.
@Suite struct MergeChangesTests {
    /// Movies "Alien" and "Heat" saved; `reader` has both registered with their values.
    private static func stack(_ storeType: String) throws -> (CtxStack, NSManagedObjectContext, [NSManagedObject]) {
        let stack = try CtxStack(model: MovieModel.make(), storeType: storeType)
        try stack.context.performAndWait {
            ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            ctxInsert("Movie", into: stack.context, ["title": "Heat", "year": 1995])
            try stack.context.save()
        }
        let reader = stack.newContext()
        let movies = try reader.performAndWait { () throws -> [NSManagedObject] in
            let movies = try ctxFetch("Movie", in: reader, sortedBy: "title")
            movies.forEach { _ = $0.value(forKey: "title") }
            return movies
        }
        return (stack, reader, movies)
    }

    /// Another context renames Alien, deletes Heat and inserts Ronin; returns its did-save notifications.
    private static func saveElsewhere(_ stack: CtxStack) throws -> (objects: Notification, objectIDs: Notification) {
        let writer = stack.newContext()
        let objects = CtxNotificationRecorder(.NSManagedObjectContextDidSave, object: writer)
        let identifiers = CtxNotificationRecorder(NSManagedObjectContext.didSaveObjectIDsNotification, object: writer)
        defer { objects.stop(); identifiers.stop() }
        try writer.performAndWait {
            let movies = try ctxFetch("Movie", in: writer, sortedBy: "title")
            movies[0].setValue("Alien (1979)", forKey: "title")
            writer.delete(movies[1])
            ctxInsert("Movie", into: writer, ["title": "Ronin", "year": 1998])
            try writer.save()
        }
        return (try #require(objects.notifications.first), try #require(identifiers.notifications.first))
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func mergingADidSaveNotificationRefreshesAndRemoves(storeType: String) throws {
        for useIDs in [false, true] {
            let (stack, reader, movies) = try Self.stack(storeType)
            let saved = try Self.saveElsewhere(stack)
            let changes = CtxNotificationRecorder(.NSManagedObjectContextObjectsDidChange, object: reader)
            defer { changes.stop() }
            reader.performAndWait {
                movies[0].setValue(1980, forKey: "year")
                reader.mergeChanges(fromContextDidSave: useIDs ? saved.objectIDs : saved.objects)
                #expect(movies[0].value(forKey: "title") as? String == "Alien (1979)", "refreshed")
                #expect(movies[0].value(forKey: "year") as? Int == 1980, "this context's change is kept")
                #expect(movies[1].managedObjectContext == nil, "the deleted movie left the context")
            }
            let change = try #require(changes.notifications.last)
            #expect(ctxObjects(change.userInfo?[NSRefreshedObjectsKey]).contains { $0 === movies[0] })
            #expect(ctxObjects(change.userInfo?[NSDeletedObjectsKey]).contains { $0 === movies[1] })
            let inserted = ctxObjects(change.userInfo?[NSInsertedObjectsKey])
            #expect(reader.performAndWait { inserted.map { $0.value(forKey: "title") as? String } } == ["Ronin"], "new objects are faulted in and reported")
        }
    }

    @Test func aMergePostsTheDidMergeNotificationWithTheMergedIDs() throws {
        let (stack, reader, movies) = try Self.stack(NSSQLiteStoreType)
        let saved = try Self.saveElsewhere(stack)
        let merges = CtxNotificationRecorder(NSManagedObjectContext.didMergeChangesObjectIDsNotification, object: reader)
        defer { merges.stop() }
        reader.performAndWait { reader.mergeChanges(fromContextDidSave: saved.objectIDs) }
        let merge = try #require(merges.notifications.first)
        #expect(ctxObjectIDs(in: merge, key: NSUpdatedObjectIDsKey) == [movies[0].objectID])
        #expect(ctxObjectIDs(in: merge, key: NSDeletedObjectIDsKey) == [movies[1].objectID])
        #expect(ctxObjectIDs(in: merge, key: NSInsertedObjectIDsKey).count == 1)
    }

    @Test func remoteChangesMergeFromIDsOrURIs() throws {
        let (stack, reader, movies) = try Self.stack(NSSQLiteStoreType)
        let saved = try Self.saveElsewhere(stack)
        let updated = (saved.objectIDs.userInfo?[NSUpdatedObjectIDsKey] as? Set<NSManagedObjectID>) ?? []
        let deleted = (saved.objectIDs.userInfo?[NSDeletedObjectIDsKey] as? Set<NSManagedObjectID>) ?? []
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [
            NSUpdatedObjectsKey: updated.map { $0.uriRepresentation() },
            NSDeletedObjectsKey: Array(deleted),
        ], into: [reader])
        reader.performAndWait {
            #expect(movies[0].value(forKey: "title") as? String == "Alien (1979)")
            #expect(movies[1].managedObjectContext == nil)
        }
    }

    @Test func contextsThatMergeAutomaticallyFollowTheirSiblingsSaves() throws {
        let (stack, reader, movies) = try Self.stack(NSSQLiteStoreType)
        reader.automaticallyMergesChangesFromParent = true
        let merged = CtxNotificationRecorder(.NSManagedObjectContextObjectsDidChange, object: reader)
        defer { merged.stop() }
        _ = try Self.saveElsewhere(stack)
        // The merge runs asynchronously on the reader's queue; a synchronous block queued after it
        // runs once it is done.
        reader.performAndWait {}
        reader.performAndWait {
            #expect(movies[0].value(forKey: "title") as? String == "Alien (1979)")
            #expect(movies[1].managedObjectContext == nil)
        }
        #expect(!merged.notifications.isEmpty)

        reader.automaticallyMergesChangesFromParent = false
        let writer = stack.newContext()
        try writer.performAndWait {
            try ctxFetch("Movie", in: writer, "title == 'Alien (1979)'").first?.setValue("Alien!", forKey: "title")
            try writer.save()
        }
        reader.performAndWait {}
        reader.performAndWait {
            #expect(movies[0].value(forKey: "title") as? String == "Alien (1979)", "no longer merged")
        }
    }
}

/// Merged deletes and the relationships of the objects that stay.
@Suite struct MergedDeleteTests {
    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType]) func aMergedDeleteLeavesTheInverseOfObjectsThatStay(storeType: String) throws {
        let stack = try CtxStack(model: MovieModel.make(), storeType: storeType)
        try stack.context.performAndWait {
            let alien = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": alien])
            ctxInsert("Character", into: stack.context, ["name": "Ash", "movie": alien])
            try stack.context.save()
        }
        let reader = stack.newContext()
        reader.automaticallyMergesChangesFromParent = true
        let alien = try reader.performAndWait { () throws -> NSManagedObject in
            let alien = try ctxFetch("Movie", in: reader)[0]
            #expect(ctxObjects(alien.value(forKey: "characters")).count == 2)
            return alien
        }
        let writer = stack.newContext()
        try writer.performAndWait {
            writer.delete(try ctxFetch("Character", in: writer, "name == 'Ash'")[0])
            try writer.save()
        }
        let names = reader.performAndWait {
            ctxObjects(alien.value(forKey: "characters")).compactMap { $0.value(forKey: "name") as? String }
        }
        #expect(names == ["Ripley"])
    }
}

/// Objects a merge or a reset forgets while they are faults.
@Suite struct ForgottenFaultTests {
    @Test func aFaultForgottenByAMergedDeleteReadsAsNil() throws {
        let stack = try CtxStack(model: MovieModel.make())
        let alien = try stack.context.performAndWait { () throws -> NSManagedObjectID in
            let alien = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            return alien.objectID
        }
        let reader = stack.newContext()
        let fault = reader.performAndWait { reader.object(with: alien) }
        let saves = CtxNotificationRecorder(.NSManagedObjectContextDidSave, object: stack.context)
        defer { saves.stop() }
        try stack.context.performAndWait {
            stack.context.delete(try stack.context.existingObject(with: alien))
            try stack.context.save()
        }
        let notification = try #require(saves.notifications.first)
        reader.performAndWait {
            reader.mergeChanges(fromContextDidSave: notification)
            #expect(fault.managedObjectContext == nil)
            #expect(fault.value(forKey: "title") == nil)
        }
    }

    @Test func aFaultForgottenByAResetReadsAsNil() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            let alien = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            stack.context.refresh(alien, mergeChanges: false)
            stack.context.reset()
            #expect(alien.value(forKey: "title") == nil)
        }
    }
}
