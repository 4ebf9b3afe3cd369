import CoreData
import Testing

/// Context notifications (MOC-8, MOC-9, MOC-10): ObjectsDidChange at `processPendingChanges()`,
/// never for a fetch; WillSave without userInfo; DidSave with objects; DidSaveObjectIDs with IDs.
///
/// Every recorder filters on its own context, so suites running in parallel do not interfere.
@Suite struct NotificationTests {
    private func movies() throws -> CtxStack {
        try CtxStack(model: MovieModel.make())
    }

    // MARK: Names and keys

    @Test func userInfoKeysHaveApplesRawValues() {
        #expect(NSInsertedObjectsKey == "inserted")
        #expect(NSUpdatedObjectsKey == "updated")
        #expect(NSDeletedObjectsKey == "deleted")
        #expect(NSManagedObjectContext.NotificationKey.insertedObjects.rawValue == NSInsertedObjectsKey)
        #expect(NSManagedObjectContext.NotificationKey.updatedObjects.rawValue == NSUpdatedObjectsKey)
        #expect(NSManagedObjectContext.NotificationKey.deletedObjects.rawValue == NSDeletedObjectsKey)
        #expect(NSManagedObjectContext.NotificationKey.insertedObjectIDs.rawValue == NSInsertedObjectIDsKey)
        #expect(NSManagedObjectContext.NotificationKey.invalidatedAllObjects.rawValue == NSInvalidatedAllObjectsKey)
    }

    @Test func notificationNamesAgree() {
        #expect(Notification.Name.NSManagedObjectContextDidSave == NSManagedObjectContext.didSaveObjectsNotification)
        #expect(Notification.Name.NSManagedObjectContextWillSave == NSManagedObjectContext.willSaveObjectsNotification)
        #expect(Notification.Name.NSManagedObjectContextObjectsDidChange == NSManagedObjectContext.didChangeObjectsNotification)
        #expect(NSManagedObjectContext.didSaveObjectIDsNotification != NSManagedObjectContext.didSaveObjectsNotification)
        #expect(Notification.Name.NSManagedObjectContextDidSave.rawValue == "NSManagedObjectContextDidSaveNotification")
        #expect(Notification.Name.NSManagedObjectContextWillSave.rawValue == "NSManagedObjectContextWillSaveNotification")
        #expect(Notification.Name.NSManagedObjectContextObjectsDidChange.rawValue == "NSManagedObjectContextObjectsDidChangeNotification")
    }

    // MARK: ObjectsDidChange

    @Test func objectsDidChangeIsPostedAtProcessPendingChangesWithInserts() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let recorder = CtxNotificationRecorder(.NSManagedObjectContextObjectsDidChange, object: stack.context)
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            #expect(recorder.notifications.isEmpty)
            stack.context.processPendingChanges()
            recorder.stop()
            #expect(recorder.notifications.count == 1)
            let note = try #require(recorder.notifications.first)
            #expect(note.object as AnyObject? === stack.context)
            #expect(ctxObjects(in: note, key: NSInsertedObjectsKey).map(ObjectIdentifier.init) == [ObjectIdentifier(movie)])
            #expect(ctxObjects(in: note, key: NSUpdatedObjectsKey).isEmpty)
            #expect(ctxObjects(in: note, key: NSDeletedObjectsKey).isEmpty)
        }
    }

    @Test func objectsDidChangeReportsUpdatesAndDeletes() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let alien = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let heat = ctxInsert("Movie", into: stack.context, ["title": "Heat"])
            let ripley = ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": heat])
            try stack.context.save()

            let recorder = CtxNotificationRecorder(.NSManagedObjectContextObjectsDidChange, object: stack.context)
            alien.setValue("Aliens", forKey: "title")
            stack.context.delete(heat)
            stack.context.processPendingChanges()
            recorder.stop()
            let note = try #require(recorder.notifications.last)
            #expect(ctxObjects(in: note, key: NSUpdatedObjectsKey).map(ObjectIdentifier.init) == [ObjectIdentifier(alien)])
            // The cascade to the character happened during this processPendingChanges and is reported.
            let deleted = Set(ctxObjects(in: note, key: NSDeletedObjectsKey).map(ObjectIdentifier.init))
            #expect(deleted == Set([ObjectIdentifier(heat), ObjectIdentifier(ripley)]))
            #expect(ctxObjects(in: note, key: NSInsertedObjectsKey).isEmpty)
        }
    }

    @Test func objectsDidChangeIsNotPostedTwiceForTheSameEvent() throws {
        let stack = try movies()
        stack.context.performAndWait {
            let recorder = CtxNotificationRecorder(.NSManagedObjectContextObjectsDidChange, object: stack.context)
            ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            stack.context.processPendingChanges()
            stack.context.processPendingChanges()
            recorder.stop()
            #expect(recorder.notifications.count == 1)
        }
    }

    @Test func aFetchPostsNoObjectsDidChange() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let recorder = CtxNotificationRecorder(.NSManagedObjectContextObjectsDidChange, object: reopened.context)
            let movies = try ctxFetch("Movie", in: reopened.context)
            _ = movies.first?.value(forKey: "title")
            reopened.context.processPendingChanges()
            recorder.stop()
            #expect(movies.count == 1)
            #expect(recorder.notifications.isEmpty)
        }
    }

    @Test func performPostsObjectsDidChangeAfterTheBlock() async throws {
        let stack = try movies()
        let recorder = CtxNotificationRecorder(.NSManagedObjectContextObjectsDidChange, object: stack.context)
        let context = stack.context
        let countDuringBlock = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            context.perform {
                ctxInsert("Movie", into: context, ["title": "Alien"])
                let during = recorder.notifications.count
                // A second block queued behind this one reports what the end of this one posted.
                context.perform { continuation.resume(returning: during) }
            }
        }
        // perform processes pending changes at the end of the block (MOC-8, MOC-37).
        let after = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            context.perform { continuation.resume(returning: recorder.notifications.count) }
        }
        recorder.stop()
        #expect(countDuringBlock == 0)
        #expect(after == 1)
    }

    // MARK: Save notifications

    @Test func willSaveHasNoUserInfoAndComesBeforeDidSave() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let order = CtxLog<String>()
            let center = NotificationCenter.default
            let will = center.addObserver(forName: .NSManagedObjectContextWillSave, object: stack.context, queue: nil) { note in
                order.append("will:\(note.userInfo?.isEmpty ?? true)")
            }
            let did = center.addObserver(forName: .NSManagedObjectContextDidSave, object: stack.context, queue: nil) { _ in
                order.append("did")
            }
            defer {
                center.removeObserver(will)
                center.removeObserver(did)
            }
            ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            #expect(order.elements == ["will:true", "did"])
        }
    }

    @Test func willSaveIsPostedWithTheContextAsObject() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let recorder = CtxNotificationRecorder(.NSManagedObjectContextWillSave, object: stack.context)
            ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            recorder.stop()
            #expect(recorder.notifications.count == 1)
            #expect(recorder.notifications.first?.object as AnyObject? === stack.context)
        }
    }

    @Test func didSaveCarriesTheSavedObjects() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let alien = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let heat = ctxInsert("Movie", into: stack.context, ["title": "Heat"])
            try stack.context.save()

            let recorder = CtxNotificationRecorder(.NSManagedObjectContextDidSave, object: stack.context)
            let inserted = ctxInsert("Movie", into: stack.context, ["title": "Ronin"])
            alien.setValue("Aliens", forKey: "title")
            stack.context.delete(heat)
            try stack.context.save()
            recorder.stop()

            try #require(recorder.notifications.count == 1)
            let note = recorder.notifications[0]
            #expect(note.object as AnyObject? === stack.context)
            #expect(ctxObjects(in: note, key: NSInsertedObjectsKey).map(ObjectIdentifier.init) == [ObjectIdentifier(inserted)])
            #expect(ctxObjects(in: note, key: NSUpdatedObjectsKey).map(ObjectIdentifier.init) == [ObjectIdentifier(alien)])
            #expect(ctxObjects(in: note, key: NSDeletedObjectsKey).map(ObjectIdentifier.init) == [ObjectIdentifier(heat)])
            // By the time DidSave is posted, inserted objects have their permanent IDs.
            #expect(ctxObjects(in: note, key: NSInsertedObjectsKey).allSatisfy { !$0.objectID.isTemporaryID })
        }
    }

    @Test func didSaveObjectIDsCarriesPermanentIDs() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let alien = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let heat = ctxInsert("Movie", into: stack.context, ["title": "Heat"])
            try stack.context.save()
            let heatID = heat.objectID

            let recorder = CtxNotificationRecorder(NSManagedObjectContext.didSaveObjectIDsNotification, object: stack.context)
            let inserted = ctxInsert("Movie", into: stack.context, ["title": "Ronin"])
            alien.setValue("Aliens", forKey: "title")
            stack.context.delete(heat)
            try stack.context.save()
            recorder.stop()

            try #require(recorder.notifications.count == 1)
            let note = recorder.notifications[0]
            #expect(note.object as AnyObject? === stack.context)
            #expect(ctxObjectIDs(in: note, key: NSInsertedObjectIDsKey) == [inserted.objectID])
            #expect(ctxObjectIDs(in: note, key: NSInsertedObjectIDsKey).allSatisfy { !$0.isTemporaryID })
            #expect(ctxObjectIDs(in: note, key: NSUpdatedObjectIDsKey) == [alien.objectID])
            #expect(ctxObjectIDs(in: note, key: NSDeletedObjectIDsKey) == [heatID])
        }
    }

    @Test func aFailedSavePostsNoDidSave() throws {
        let stack = try movies()
        stack.context.performAndWait {
            let recorder = CtxNotificationRecorder(.NSManagedObjectContextDidSave, object: stack.context)
            let ids = CtxNotificationRecorder(NSManagedObjectContext.didSaveObjectIDsNotification, object: stack.context)
            ctxInsert("Movie", into: stack.context)
            #expect(ctxError { try stack.context.save() } != nil)
            recorder.stop()
            ids.stop()
            #expect(recorder.notifications.isEmpty)
            #expect(ids.notifications.isEmpty)
        }
    }

    @Test func saveProcessesPendingChangesFirst() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let log = CtxLog<String>()
            let center = NotificationCenter.default
            let tokens = [
                center.addObserver(forName: .NSManagedObjectContextObjectsDidChange, object: stack.context, queue: nil) { _ in log.append("change") },
                center.addObserver(forName: .NSManagedObjectContextWillSave, object: stack.context, queue: nil) { _ in log.append("will") },
                center.addObserver(forName: .NSManagedObjectContextDidSave, object: stack.context, queue: nil) { _ in log.append("did") },
            ]
            defer { tokens.forEach(center.removeObserver) }
            ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            let events = log.elements
            #expect(events.first == "change")
            #expect(events.firstIndex(of: "will").map { $0 < (events.firstIndex(of: "did") ?? -1) } == true)
            #expect(events.filter { $0 == "did" }.count == 1)
        }
    }
}
