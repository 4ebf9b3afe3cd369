import CoreDataPostgreSQL
import Dispatch
import Foundation
import Synchronization
import Testing

/// Every coordinator that asks for remote-change notifications hears of the saves of every
/// other coordinator of the store, through PostgreSQL's `LISTEN` and `NOTIFY`.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipMessage)))
struct PostgreSQLRemoteChangeTests {
    @Test func aSaveOfAnotherCoordinatorIsPostedAsARemoteChange() throws {
        let (saving, listening) = try Self.savingAndListeningStacks()
        let posted = DispatchSemaphore(value: 0)
        let posts = Mutex<[(storeUUID: String?, url: URL?)]>([])
        let observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: listening.coordinator, queue: nil) { notification in
            let post = (notification.userInfo?[NSStoreUUIDKey] as? String, notification.userInfo?[NSPersistentStoreURLKey] as? URL)
            posts.withLock { $0.append(post) }
            posted.signal()
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        let context = saving.newContext()
        try context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Book", into: context).setValue("Earthsea", forKey: "title")
            try context.save()
        }
        #expect(posted.wait(timeout: .now() + 10) == .success)
        let post = try #require(posts.withLock { $0.first })
        #expect(post.storeUUID == saving.store.identifier)
        #expect(post.url == PostgreSQLTestServer.url)

        let other = listening.newContext()
        let titles = try other.performAndWait {
            try other.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book")).map { $0.value(forKey: "title") as? String }
        }
        #expect(titles == ["Earthsea"])
    }

    @Test func aSaveRolledBackIsNotPosted() throws {
        let (saving, listening) = try Self.savingAndListeningStacks()
        try Self.countingRemoteChanges(of: listening.coordinator) { count in
            let (first, second) = (saving.newContext(), try saving.another().newContext())
            let objectID = try first.performAndWait {
                let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: first)
                book.setValue("Draft", forKey: "title")
                try first.save()
                return book.objectID
            }
            try PostgreSQLTestServer.waitForDelivery()
            let afterInsert = count()
            // A conflicting save is rolled back: nothing is committed, and nothing is posted.
            let stale = try second.performAndWait {
                let book = try second.existingObject(with: try #require(second.persistentStoreCoordinator?.managedObjectID(forURIRepresentation: objectID.uriRepresentation())))
                _ = book.value(forKey: "title")
                return book
            }
            try first.performAndWait {
                try first.existingObject(with: objectID).setValue("First", forKey: "title")
                try first.save()
            }
            try PostgreSQLTestServer.waitForDelivery()
            let afterUpdate = count()
            second.performAndWait {
                stale.setValue("Second", forKey: "title")
                #expect(throws: NSError.self) { try second.save() }
            }
            try PostgreSQLTestServer.waitForDelivery()
            #expect(afterInsert >= 1)
            #expect(afterUpdate == afterInsert + 1)
            #expect(count() == afterUpdate)
        }
    }

    @Test func eachBatchRequestOfAnotherCoordinatorIsPostedAsARemoteChange() throws {
        let (saving, listening) = try Self.savingAndListeningStacks()
        try Self.countingRemoteChanges(of: listening.coordinator) { count in
            let update = NSBatchUpdateRequest(entityName: "Book")
            update.propertiesToUpdate = ["pages": 10]
            let requests: [NSPersistentStoreRequest] = [
                NSBatchInsertRequest(entityName: "Book", objects: [["title": "Earthsea"], ["title": "Lavinia"]]),
                update,
                NSBatchDeleteRequest(fetchRequest: NSFetchRequest(entityName: "Book")),
            ]
            let context = saving.newContext()
            for (index, request) in requests.enumerated() {
                _ = try context.performAndWait { try context.execute(request) }
                try PostgreSQLTestServer.waitForDelivery()
                #expect(count() == index + 1, "\(type(of: request))")
            }
        }
    }

    /// A store's stack, and a second coordinator on the store that posts remote-change notifications.
    private static func savingAndListeningStacks() throws -> (saving: PostgreSQLStack, listening: PostgreSQLStack) {
        let saving = try PostgreSQLStack(model: LibraryModel.make())
        var options = saving.options
        options[NSPersistentStoreRemoteChangeNotificationPostOptionKey] = true
        return (saving, try PostgreSQLStack(model: saving.model, options: options))
    }

    /// Runs `body` while counting the remote-change notifications `coordinator` posts; `body`
    /// reads the count so far.
    private static func countingRemoteChanges(of coordinator: NSPersistentStoreCoordinator, _ body: (_ count: () -> Int) throws -> Void) throws {
        let count = Mutex(0)
        let observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: coordinator, queue: nil) { _ in
            count.withLock { $0 += 1 }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try body { count.withLock { $0 } }
    }
}
