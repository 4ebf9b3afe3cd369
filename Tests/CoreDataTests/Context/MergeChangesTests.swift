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
    func mergingADidSaveNotificationRefreshesInsertsAndDeletes(storeType: String) throws {
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
                #expect(movies[1].isDeleted, "the deleted movie is deleted here too")
            }
            let change = try #require(changes.notifications.last)
            // As Apple's contexts report a merge: another context's updates are refreshed objects
            // here, not updated ones.
            #expect(ctxObjects(change.userInfo?[NSRefreshedObjectsKey]).contains { $0 === movies[0] })
            #expect(ctxObjects(in: change, key: NSUpdatedObjectsKey).isEmpty)
            #expect(ctxObjects(change.userInfo?[NSDeletedObjectsKey]).contains { $0 === movies[1] })
            let inserted = ctxObjects(change.userInfo?[NSInsertedObjectsKey])
            #expect(reader.performAndWait { inserted.map { $0.value(forKey: "title") as? String } } == ["Ronin"], "new objects are faulted in and reported")
        }
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func anObjectAnotherContextInsertedIsRegisteredWithItsValues(storeType: String) throws {
        let (stack, reader, _) = try Self.stack(storeType)
        let saved = try Self.saveElsewhere(stack)
        let roninID = try #require(ctxObjectIDs(in: saved.objectIDs, key: NSInsertedObjectIDsKey).first)
        let changes = CtxNotificationRecorder(.NSManagedObjectContextObjectsDidChange, object: reader)
        defer { changes.stop() }
        reader.performAndWait {
            reader.mergeChanges(fromContextDidSave: saved.objects)
            // (The recorded notification keeps the object alive: a context holds objects without
            // changes weakly.)
            let ronin = reader.registeredObject(for: roninID)
            #expect(ronin?.isFault == false, "registered with its values, as Apple's merge faults in new objects")
            #expect(ronin?.value(forKey: "title") as? String == "Ronin")
        }
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func anObjectAnotherContextDeletedStaysRegisteredAsDeletedUntilTheNextSave(storeType: String) throws {
        let (stack, reader, movies) = try Self.stack(storeType)
        let heat = movies[1]
        let saved = try Self.saveElsewhere(stack)
        let saves = CtxNotificationRecorder(.NSManagedObjectContextDidSave, object: reader)
        defer { saves.stop() }
        try reader.performAndWait {
            reader.mergeChanges(fromContextDidSave: saved.objects)
            // As on Apple platforms: registered, deleted, with its last values.
            #expect(heat.managedObjectContext === reader)
            #expect(heat.isDeleted && !heat.isFault)
            #expect(heat.value(forKey: "title") as? String == "Heat")
            #expect(reader.registeredObjects.contains(heat))
            #expect(reader.deletedObjects == [heat])
            // Fetches no longer find it.
            let titles = try ctxFetch("Movie", in: reader, sortedBy: "title").map { $0.value(forKey: "title") as? String }
            #expect(titles == ["Alien (1979)", "Ronin"])
            #expect(try ctxFetch("Movie", in: reader, "title == 'Heat'").isEmpty)
            #expect(try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Movie")) == 2)

            // The next save writes nothing for it, and it leaves the context.
            try reader.save()
            #expect(heat.managedObjectContext == nil)
            #expect(!reader.hasChanges)
        }
        let didSave = try #require(saves.notifications.first)
        #expect(ctxObjects(in: didSave, key: NSDeletedObjectsKey).isEmpty, "the reader did not delete it")
        #expect(try reader.performAndWait { try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Movie")) } == 2)
    }

    @Test func rollbackRefreshResetAndLaterMergesWorkAfterAMergedDelete() throws {
        let (stack, reader, movies) = try Self.stack(NSSQLiteStoreType)
        let (alien, heat) = (movies[0], movies[1])
        let saved = try Self.saveElsewhere(stack)
        reader.performAndWait {
            reader.mergeChanges(fromContextDidSave: saved.objects)
            // Rollback cannot bring back a row another context deleted: the object leaves.
            reader.rollback()
            #expect(heat.managedObjectContext == nil)
            #expect(!reader.hasChanges)
            #expect(alien.value(forKey: "title") as? String == "Alien (1979)")
        }
        // A later merge of a delete of an object this context refreshed in between.
        let writer = stack.newContext()
        let saves = CtxNotificationRecorder(.NSManagedObjectContextDidSave, object: writer)
        defer { saves.stop() }
        try writer.performAndWait {
            writer.delete(try ctxFetch("Movie", in: writer, "title == 'Alien (1979)'")[0])
            try writer.save()
        }
        let deleted = try #require(saves.notifications.first)
        reader.performAndWait {
            reader.refresh(alien, mergeChanges: false)
            reader.mergeChanges(fromContextDidSave: deleted)
            #expect(alien.isDeleted)
            reader.refresh(alien, mergeChanges: false)
            #expect(alien.value(forKey: "title") == nil, "its row is gone")
            reader.reset()
            #expect(alien.managedObjectContext == nil)
            #expect(!reader.hasChanges)
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
            #expect(movies[1].isDeleted)
        }
    }

    @Test func aDidSaveOfAnotherCoordinatorMergesTheRowsItWrote() throws {
        for useIDs in [false, true] {
            let (stack, reader, movies) = try Self.stack(NSSQLiteStoreType)
            // Another coordinator on the file: the reader's coordinator still holds the rows it
            // read before the save.
            let saved = try Self.saveElsewhere(try stack.reopened())
            reader.performAndWait {
                reader.mergeChanges(fromContextDidSave: useIDs ? saved.objectIDs : saved.objects)
                #expect(movies[0].value(forKey: "title") as? String == "Alien (1979)", "merging \(useIDs ? "IDs" : "objects")")
                #expect(movies[1].isDeleted, "merging \(useIDs ? "IDs" : "objects")")
            }
        }
    }

    @Test func remoteChangesSavedByAnotherCoordinatorMergeTheRowsItWrote() throws {
        let (stack, reader, movies) = try Self.stack(NSSQLiteStoreType)
        // Another coordinator on the file, as another process has: the reader's coordinator
        // still holds the rows it read before the save.
        let saved = try Self.saveElsewhere(try stack.reopened())
        let uris = { (key: String) in ((saved.objectIDs.userInfo?[key] as? Set<NSManagedObjectID>) ?? []).map { $0.uriRepresentation() } }
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [
            NSUpdatedObjectsKey: uris(NSUpdatedObjectIDsKey),
            NSDeletedObjectsKey: uris(NSDeletedObjectIDsKey),
        ], into: [reader])
        reader.performAndWait {
            #expect(movies[0].value(forKey: "title") as? String == "Alien (1979)")
            #expect(movies[1].isDeleted)
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
            #expect(movies[1].isDeleted)
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

/// Merges and the relationships this context changed.
@Suite struct MergedRelationshipTests {
    /// Alien with Ripley and Ash saved; `reader` has Alien's characters loaded and adds Kane to
    /// them without saving.
    private static func stack() throws -> (CtxStack, NSManagedObjectContext, NSManagedObject) {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            let alien = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": alien])
            ctxInsert("Character", into: stack.context, ["name": "Ash", "movie": alien])
            try stack.context.save()
        }
        let reader = stack.newContext()
        let alien = try reader.performAndWait { () throws -> NSManagedObject in
            let alien = try ctxFetch("Movie", in: reader)[0]
            #expect(ctxObjects(alien.value(forKey: "characters")).count == 2)
            ctxInsert("Character", into: reader, ["name": "Kane", "movie": alien])
            return alien
        }
        return (stack, reader, alien)
    }

    private static func names(of movie: NSManagedObject, in context: NSManagedObjectContext) -> [String] {
        context.performAndWait { ctxObjects(movie.value(forKey: "characters")).compactMap { $0.value(forKey: "name") as? String }.sorted() }
    }

    /// Saves a change made in another context and merges it into `reader`.
    private static func merge(into reader: NSManagedObjectContext, from stack: CtxStack, _ change: (NSManagedObjectContext) throws -> Void) throws {
        let writer = stack.newContext()
        let saves = CtxNotificationRecorder(.NSManagedObjectContextDidSave, object: writer)
        defer { saves.stop() }
        try writer.performAndWait {
            try change(writer)
            try writer.save()
        }
        let saved = try #require(saves.notifications.first)
        reader.performAndWait { reader.mergeChanges(fromContextDidSave: saved) }
    }

    @Test func aMergeKeepsTheDestinationsBothContextsAdded() throws {
        let (stack, reader, alien) = try Self.stack()
        try Self.merge(into: reader, from: stack) { writer in
            ctxInsert("Character", into: writer, ["name": "Dallas", "movie": try ctxFetch("Movie", in: writer)[0]])
        }
        // Refreshing with merged changes applies this context's additions again on top of the
        // saved destinations, as Apple documents: both new characters are there.
        #expect(Self.names(of: alien, in: reader) == ["Ash", "Dallas", "Kane", "Ripley"])
    }

    private static func songTitles(_ playlist: NSManagedObject) -> [String] {
        ((playlist.value(forKey: "songs") as? NSOrderedSet)?.array ?? []).compactMap { ($0 as? NSManagedObject)?.value(forKey: "title") as? String }
    }

    @Test func refreshKeepingChangesKeepsALocalReorderOfAnOrderedToMany() throws {
        let stack = try CtxStack(model: CtxGraphModel.make())
        try stack.context.performAndWait {
            let playlist = ctxInsert("Playlist", into: stack.context, ["name": "Mix"])
            let songs = playlist.mutableOrderedSetValue(forKey: "songs")
            for title in ["A", "B", "C"] { songs.add(ctxInsert("Song", into: stack.context, ["title": title])) }
            try stack.context.save()
        }
        let reader = stack.newContext()
        try reader.performAndWait {
            let playlist = try ctxFetch("Playlist", in: reader)[0]
            playlist.mutableOrderedSetValue(forKey: "songs").moveObjects(at: IndexSet(integer: 2), to: 0)
            reader.refresh(playlist, mergeChanges: true)
            #expect(Self.songTitles(playlist) == ["C", "A", "B"])
            try reader.save()
        }
        let reopened = try stack.reopened()
        let stored = try reopened.context.performAndWait { Self.songTitles(try ctxFetch("Playlist", in: reopened.context)[0]) }
        #expect(stored == ["C", "A", "B"])
    }

    @Test func aMergeKeepsALocalInsertAtTheFrontOfAnOrderedToManyAndAddsTheOthersAtTheEnd() throws {
        let stack = try CtxStack(model: CtxGraphModel.make())
        try stack.context.performAndWait {
            let playlist = ctxInsert("Playlist", into: stack.context, ["name": "Mix"])
            let songs = playlist.mutableOrderedSetValue(forKey: "songs")
            for title in ["A", "B"] { songs.add(ctxInsert("Song", into: stack.context, ["title": title])) }
            try stack.context.save()
        }
        let reader = stack.newContext()
        let playlist = try reader.performAndWait { () throws -> NSManagedObject in
            let playlist = try ctxFetch("Playlist", in: reader)[0]
            playlist.mutableOrderedSetValue(forKey: "songs").insert(ctxInsert("Song", into: reader, ["title": "Z"]), at: 0)
            return playlist
        }
        let writer = stack.newContext()
        let saves = CtxNotificationRecorder(.NSManagedObjectContextDidSave, object: writer)
        try writer.performAndWait {
            let theirs = try ctxFetch("Playlist", in: writer)[0]
            theirs.setValue("Renamed", forKey: "name")
            theirs.mutableOrderedSetValue(forKey: "songs").add(ctxInsert("Song", into: writer, ["title": "W"]))
            try writer.save()
        }
        saves.stop()
        let saved = try #require(saves.notifications.first)
        reader.performAndWait {
            reader.mergeChanges(fromContextDidSave: saved)
            #expect(Self.songTitles(playlist) == ["Z", "A", "B", "W"])
        }
    }

    @Test func aMergeWhoseRowsCannotBeReadStillReportsTheInsertedObjects() throws {
        let stack = try CtxStack(model: MovieModel.make())
        let writer = stack.newContext()
        let saves = CtxNotificationRecorder(.NSManagedObjectContextDidSave, object: writer)
        try writer.performAndWait {
            ctxInsert("Movie", into: writer, ["title": "Alien"])
            try writer.save()
        }
        saves.stop()
        let saved = try #require(saves.notifications.first)
        try stack.coordinator.remove(stack.store)
        let reader = stack.newContext()
        reader.stalenessInterval = 0   // no row from the coordinator's cache: the store must be read
        let changes = CtxNotificationRecorder(.NSManagedObjectContextObjectsDidChange, object: reader)
        reader.performAndWait { reader.mergeChanges(fromContextDidSave: saved) }
        let inserted = changes.notifications.first.map { ctxObjects(in: $0, key: NSInsertedObjectsKey) } ?? []
        #expect(inserted.count == 1)
        #expect(inserted.first?.isFault == true, "it reads its row, and reports the error, when used")
    }

    @Test func aMergedDeleteLeavesTheRelationshipsThisContextChanged() throws {
        let (stack, reader, alien) = try Self.stack()
        try Self.merge(into: reader, from: stack) { writer in
            writer.delete(try ctxFetch("Character", in: writer, "name == 'Ash'")[0])
        }
        #expect(Self.names(of: alien, in: reader) == ["Kane", "Ripley"])
        try reader.performAndWait { try reader.save() }
        let reopened = try stack.reopened()
        let stored = try reopened.context.performAndWait {
            try ctxFetch("Character", in: reopened.context, "movie.title == 'Alien'").compactMap { $0.value(forKey: "name") as? String }.sorted()
        }
        #expect(stored == ["Kane", "Ripley"])
    }

    @Test func theDeleteRulesOfAMergedDeleteApplyToWhatThisContextLinkedToIt() throws {
        let (stack, reader, alien) = try Self.stack()
        // Here, not saved: Ash moves to a new movie, Kane (new) to Alien.
        let (ash, prometheus, kane) = try reader.performAndWait { () throws -> (NSManagedObject, NSManagedObject, NSManagedObject) in
            let ash = try ctxFetch("Character", in: reader, "name == 'Ash'")[0]
            let prometheus = ctxInsert("Movie", into: reader, ["title": "Prometheus"])
            ash.setValue(prometheus, forKey: "movie")
            let kane = try ctxFetch("Character", in: reader, "name == 'Kane'")[0]
            return (ash, prometheus, kane)
        }
        try Self.merge(into: reader, from: stack) { writer in
            writer.delete(try ctxFetch("Character", in: writer, "name == 'Ash'")[0])
        }
        // A character's movie nullifies: Prometheus no longer has Ash.
        reader.performAndWait {
            #expect(ash.isDeleted)
            #expect(ctxObjects(prometheus.value(forKey: "characters")).isEmpty)
        }
        try Self.merge(into: reader, from: stack) { writer in
            writer.delete(try ctxFetch("Movie", in: writer, "title == 'Alien'")[0])
        }
        // A movie's characters cascade: Kane, which only this context gave Alien, goes too.
        try reader.performAndWait {
            reader.processPendingChanges()
            #expect(alien.isDeleted)
            #expect(kane.managedObjectContext == nil, "an unsaved object that is deleted leaves its context")
            try reader.save()
        }
        #expect(try stack.storedCountAfterReopening("Character") == 0)
        #expect(try stack.storedCountAfterReopening("Movie") == 1)
    }

    @Test func aSaveThatWritesNothingLeavesNewerRowsForMerges() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            try stack.context.save()
        }
        let reader = stack.newContext()
        let alien = try reader.performAndWait { () throws -> NSManagedObject in
            let alien = try ctxFetch("Movie", in: reader)[0]
            alien.setValue(1979, forKey: "year")
            return alien
        }
        let writer = stack.newContext()
        let saves = CtxNotificationRecorder(.NSManagedObjectContextDidSave, object: writer)
        defer { saves.stop() }
        try writer.performAndWait {
            try ctxFetch("Movie", in: writer)[0].setValue(1980, forKey: "year")
            try writer.save()
        }
        // The reader's save writes nothing (its value equals the row it read), so the row
        // another context saved since stays the one merges and faults read.
        try reader.performAndWait {
            try reader.save()
            reader.mergeChanges(fromContextDidSave: try #require(saves.notifications.first))
            #expect(alien.value(forKey: "year") as? Int == 1980)
        }
    }
}

/// Objects a merge or a reset forgets while they are faults.
@Suite struct ForgottenFaultTests {
    @Test func aFaultAMergedDeleteFindsStaysRegisteredAsDeleted() throws {
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
            #expect(fault.managedObjectContext === reader)
            #expect(fault.isDeleted)
            #expect(fault.value(forKey: "title") == nil, "it never read its row")
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
