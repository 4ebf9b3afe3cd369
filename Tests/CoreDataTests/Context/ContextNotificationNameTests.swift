import CoreData
import Testing

/// The notification names of the object-ID notifications, in both of Apple's spellings.
@Suite struct ContextNotificationNameTests {
    @Test func theObjectIDNotificationsHaveApplesNames() {
        #expect(Notification.Name.NSManagedObjectContextDidSaveObjectIDs.rawValue == "NSManagedObjectContextDidSaveObjectIDsNotification")
        #expect(Notification.Name.NSManagedObjectContextDidMergeChangesObjectIDs.rawValue == "NSManagedObjectContextDidMergeChangesObjectIDsNotification")
        #expect(NSManagedObjectContext.didSaveObjectIDsNotification == .NSManagedObjectContextDidSaveObjectIDs)
        #expect(NSManagedObjectContext.didMergeChangesObjectIDsNotification == .NSManagedObjectContextDidMergeChangesObjectIDs)
    }

    @Test func aSavePostsDidSaveObjectIDsWithTheSavedIDs() throws {
        let stack = try CtxStack(model: CtxGraphModel.make())
        let seen = CtxLog<Set<NSManagedObjectID>>()
        let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSaveObjectIDs, object: stack.context, queue: nil) { note in
            seen.append(note.userInfo?[NSInsertedObjectIDsKey] as? Set<NSManagedObjectID> ?? [])
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let id = try stack.context.performAndWait { () throws in
            let person = ctxInsert("Person", into: stack.context, ["name": "Ann"])
            try stack.context.save()
            return person.objectID
        }
        #expect(seen.elements == [[id]])
    }
}
