@testable import CoreData
@testable import CoreDataCrashWriter
import Testing

/// `NSPersistentStoreRemoteChangeNotificationPostOptionKey`: a coordinator whose store sets it
/// posts `NSPersistentStoreRemoteChange` after every commit to the store file — another
/// coordinator's, another process's, or its own, as Apple documents for the option — and stops
/// when the store is removed or the coordinator goes away. Serialized: one test counts the
/// process's inotify descriptors.
@Suite(.serialized) struct RemoteChangeNotificationTests {
    /// A coordinator on the store file at `url` with `options`, posting remote changes when
    /// `posting`.
    private static func stack(at url: URL, posting: Bool = false, options: [AnyHashable: Any] = [:]) throws -> SQLiteTestStack {
        var options = options
        if posting { options[NSPersistentStoreRemoteChangeNotificationPostOptionKey] = true as NSNumber }
        return try SQLiteTestStack(model: CtxGraphModel.make(), url: url, options: options)
    }

    private static func savePerson(_ name: String, in stack: SQLiteTestStack) throws {
        try stack.context.performAndWait {
            ctxInsert("Person", into: stack.context, ["name": name])
            try stack.context.save()
        }
    }

    @Test func aCoordinatorWithTheOptionIsToldOfAnotherCoordinatorsSave() throws {
        let directory = try SQLiteScratchDirectory("remote-change")
        defer { directory.remove() }
        let url = directory.file("Shared.sqlite")
        let watching = try Self.stack(at: url, posting: true)
        defer { watching.close() }
        let writing = try Self.stack(at: url)
        defer { writing.close() }
        let recorder = RemoteChangeRecorder(watching.coordinator)

        try Self.savePerson("Ann", in: writing)
        #expect(recorder.waitForNotification(beyond: 0))
        let expected = RemoteChangeRecorder.Posted(storeURL: watching.store.url, storeUUID: watching.store.identifier)
        #expect(recorder.notifications.allSatisfy { $0 == expected }, "\(recorder.notifications)")
        #expect(watching.store.identifier?.isEmpty == false)
    }

    @Test func aCoordinatorIsToldOfItsOwnSavesAsApplesOptionSays() throws {
        let directory = try SQLiteScratchDirectory("remote-change-own")
        defer { directory.remove() }
        let url = directory.file("Shared.sqlite")
        let stack = try Self.stack(at: url, posting: true)
        defer { stack.close() }
        let recorder = RemoteChangeRecorder(stack.coordinator)

        try Self.savePerson("Ann", in: stack)
        #expect(recorder.waitForNotification(beyond: 0))
    }

    @Test func theOptionSetThroughADescriptionTurnsPostingOn() throws {
        let directory = try SQLiteScratchDirectory("remote-change-description")
        defer { directory.remove() }
        let url = directory.file("Shared.sqlite")
        let description = NSPersistentStoreDescription(url: url)
        description.setOption(true as NSNumber, forKey: NSPersistentStoreRemoteChangeNotificationPostOptionKey)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: CtxGraphModel.make())
        var failure: Error?
        coordinator.addPersistentStore(with: description) { _, error in failure = error }
        #expect(failure == nil)
        defer { coordinator.persistentStores.forEach { try? coordinator.remove($0) } }
        let recorder = RemoteChangeRecorder(coordinator)
        let writing = try Self.stack(at: url)
        defer { writing.close() }

        try Self.savePerson("Ann", in: writing)
        #expect(recorder.waitForNotification(beyond: 0))
    }

    @Test func aStoreInRollbackJournalModeIsWatchedToo() throws {
        let directory = try SQLiteScratchDirectory("remote-change-rollback")
        defer { directory.remove() }
        let url = directory.file("Shared.sqlite")
        let rollback: [AnyHashable: Any] = [NSSQLitePragmasOption: ["journal_mode": "DELETE"]]
        let watching = try Self.stack(at: url, posting: true, options: rollback)
        defer { watching.close() }
        let recorder = RemoteChangeRecorder(watching.coordinator)
        let writing = try Self.stack(at: url, options: rollback)
        try Self.savePerson("Ann", in: writing)
        writing.close()

        #expect(recorder.waitForNotification(beyond: 0))
        let names = try watching.context.performAndWait {
            try watching.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")).compactMap { $0.value(forKey: "name") as? String }
        }
        #expect(names == ["Ann"])
    }

    @Test func withoutTheOptionNothingIsPosted() throws {
        let directory = try SQLiteScratchDirectory("remote-change-off")
        defer { directory.remove() }
        let url = directory.file("Shared.sqlite")
        let silent = try Self.stack(at: url)
        defer { silent.close() }
        let watching = try Self.stack(at: url, posting: true)
        defer { watching.close() }
        let silentRecorder = RemoteChangeRecorder(silent.coordinator)
        let watchingRecorder = RemoteChangeRecorder(watching.coordinator)

        try Self.savePerson("Ann", in: silent)
        try Self.savePerson("Bob", in: silent)
        // The coordinator with the option saw the commits, so they were there to be seen.
        #expect(watchingRecorder.waitForNotification(beyond: 0))
        #expect(silentRecorder.notifications.isEmpty)
    }

    @Test func removingTheStoreStopsItsNotifications() throws {
        let directory = try SQLiteScratchDirectory("remote-change-removed")
        defer { directory.remove() }
        let url = directory.file("Shared.sqlite")
        let removed = try Self.stack(at: url, posting: true)
        let control = try Self.stack(at: url, posting: true)
        defer { control.close() }
        let writing = try Self.stack(at: url)
        defer { writing.close() }
        let removedRecorder = RemoteChangeRecorder(removed.coordinator)
        let controlRecorder = RemoteChangeRecorder(control.coordinator)

        try Self.savePerson("Ann", in: writing)
        #expect(removedRecorder.waitForNotification(beyond: 0))
        #expect(controlRecorder.waitForNotification(beyond: 0))
        try removed.coordinator.remove(removed.store)
        let beforeRemoval = removedRecorder.notifications.count
        let controlSeen = controlRecorder.notifications.count

        try Self.savePerson("Bob", in: writing)
        #expect(controlRecorder.waitForNotification(beyond: controlSeen))
        #expect(removedRecorder.notifications.count == beforeRemoval)
    }

    @Test func neitherRemovedStoresNorGoneCoordinatorsLeaveInotifyDescriptorsOpen() throws {
        let directory = try SQLiteScratchDirectory("remote-change-leaks")
        defer { directory.remove() }
        let url = directory.file("Shared.sqlite")
        let writing = try Self.stack(at: url)
        defer { writing.close() }
        let baseline = Self.inotifyDescriptorCount()

        for round in 0..<5 {
            let watching = try Self.stack(at: url, posting: true)
            let recorder = RemoteChangeRecorder(watching.coordinator)
            try Self.savePerson("Person \(round)", in: writing)
            #expect(recorder.waitForNotification(beyond: 0), "round \(round)")
            if round.isMultiple(of: 2) { watching.close() }
        }
        // The descriptors close on the watchers' queues, just after the stores go.
        #expect(Self.waitUntil { Self.inotifyDescriptorCount() == baseline }, "\(Self.inotifyDescriptorCount()) open, \(baseline) before")
    }

    @Test func aChildProcessesCommitIsPostedAndARefetchSeesItsRows() throws {
        let directory = try SQLiteScratchDirectory("remote-change-process")
        defer { directory.remove() }
        let url = directory.file("Shared.sqlite")
        let reader = try SQLiteTestStack(model: CrashModel.make(), url: url, options: [NSPersistentStoreRemoteChangeNotificationPostOptionKey: true])
        defer { reader.close() }
        let recorder = RemoteChangeRecorder(reader.coordinator)
        let writer = try CrashWriterProcess(store: url, writer: "A", first: 1, mode: .commands, errorLog: directory.file("A.log"))
        try #require(writer.nextLine() == .ready, "\(writer.failure ?? writer.errors)")

        try #require(writer.request(.save) == .saved(1), "\(writer.failure ?? writer.errors)")
        // Opening the store may write too; wait for the notification after which a refetch
        // sees the saved batch.
        var batches = 0
        var seen = 0
        while batches == 0, recorder.waitForNotification(beyond: seen) {
            seen = recorder.notifications.count
            batches = try reader.context.performAndWait {
                try reader.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Batch"))
            }
        }
        #expect(batches == 1)
        #expect(recorder.notifications.last == RemoteChangeRecorder.Posted(storeURL: url, storeUUID: reader.store.identifier))
        writer.finish()
        #expect(writer.process.terminationStatus == 0, "\(writer.failure ?? writer.errors)")
    }

    /// The descriptors of this process that are inotify instances.
    private static func inotifyDescriptorCount() -> Int {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.count { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == "anon_inode:inotify" }
    }

    /// Whether `condition` holds within `RemoteChangeRecorder.patience`.
    private static func waitUntil(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(RemoteChangeRecorder.patience)
        while !condition() {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }
}
