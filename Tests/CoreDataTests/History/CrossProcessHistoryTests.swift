@testable import CoreData
@testable import CoreDataCrashWriter
import Synchronization
import Testing

extension RemoteChangeNotificationTests {
    /// Persistent history across processes, used as Apple's "Consuming relevant store changes"
    /// describes: two crash writers (`CoreDataCrashWriter`) in child processes save inserts, updates
    /// and deletes into one store that records history, each as its own transaction author, while
    /// this process's view context follows them by merging the history after its last token on each
    /// `NSPersistentStoreRemoteChange`, and a fetched results controller reports what changed.
    ///
    /// Nested in `RemoteChangeNotificationTests`, whose serialized tests count this process's inotify
    /// descriptors: a reader watching its store here, at the same time, would throw their count off.
    @Suite struct CrossProcessHistoryTests {
        private static let writers = ["writer-1", "writer-2"]
        /// Saves of each writer: past `CrashPlan.window`, so that the last ones delete batches.
        private static let savesEach = CrashPlan.window + 4

        /// The reader's options: history, and a notification after each commit.
        private static var readerOptions: [AnyHashable: Any] {
            HistoryTestStore.options.merging([NSPersistentStoreRemoteChangeNotificationPostOptionKey: true as NSNumber]) { $1 }
        }

        @Test func aViewContextMergingHistoryOnEachNotificationEndsWithWhatTwoWriterProcessesSaved() throws {
            let directory = try SQLiteScratchDirectory("history-processes")
            defer { directory.remove() }
            let url = directory.file("Shared.sqlite")
            let reader = try SQLiteTestStack(model: CrashModel.make(), url: url, options: Self.readerOptions)
            defer { reader.close() }
            let follower = try HistoryFollower(reader.coordinator)
            // The same results in a context that merges nothing: what its controller reports is the
            // part a merge plays.
            let unmerged = try FollowedItems(NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType), of: reader.coordinator)

            // The writers wait for this process to merge each round before the next: so it merges
            // items before they are updated or deleted, whatever the machine's load.
            try Self.runWriters(on: url, in: directory) {
                let token = try #require(reader.coordinator.currentPersistentHistoryToken(fromStores: nil))
                try Self.requireMerged(follower, through: token)
            }
            let store = try StoreAfterWriters(url)
            try Self.requireMerged(follower, through: store.token)
            Self.expect(follower, endsWith: store)

            // It merged as the writers saved, so the controller saw every kind of change.
            let reported = follower.items.changes.reported
            #expect(!reported(.delete).isEmpty && !reported(.update).isEmpty)
            // The notifications carried the history's tokens, in order, up to the last.
            let notified = follower.notifiedTransactionNumbers
            #expect(zip(notified, notified.dropFirst()).allSatisfy(<=), "\(notified)")
            #expect(notified.last == store.token.transactionNumbers.values.first)

            // Without merging, the same controller saw nothing, though the store has every item.
            #expect(unmerged.states().isEmpty)
            #expect(unmerged.changes.all.isEmpty)
            #expect(try unmerged.context.performAndWait { try unmerged.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Item")) } == store.items.count)
        }

        @Test func aViewContextThatFellBehindCatchesUpWithEverythingTheWritersSaved() throws {
            let directory = try SQLiteScratchDirectory("history-processes-behind")
            defer { directory.remove() }
            let url = directory.file("Shared.sqlite")
            let reader = try SQLiteTestStack(model: CrashModel.make(), url: url, options: Self.readerOptions)
            defer { reader.close() }
            let follower = try HistoryFollower(reader.coordinator)
            // The view context's queue is busy until the writers are done: every notification's
            // merge waits, and the first reads all the history at once, where the rows of the
            // batches deleted since are gone.
            let busy = DispatchSemaphore(value: 0)
            follower.items.context.perform { busy.wait() }
            do {
                defer { busy.signal() }
                try Self.runWriters(on: url, in: directory)
            }
            let store = try StoreAfterWriters(url)
            try Self.requireMerged(follower, through: store.token)
            Self.expect(follower, endsWith: store)
        }

        /// Runs both writers' saves into the store at `url`, both at once each round, then
        /// `afterEachRound`; requires every save to commit and both writers to exit cleanly.
        private static func runWriters(on url: URL, in directory: SQLiteScratchDirectory, afterEachRound: () throws -> Void = {}) throws {
            let processes = try writers.map { name in
                try CrashWriterProcess(store: url, writer: name, first: 1, mode: .commands, recordsHistory: true, errorLog: directory.file("\(name).log"))
            }
            for process in processes {
                try #require(process.nextLine() == .ready, "\(process.failure ?? process.errors)")
            }
            for number in 1...savesEach {
                for process in processes {
                    process.send(.save)
                }
                for (name, process) in zip(writers, processes) {
                    try #require(process.nextLine() == .saved(number), "\(name): \(process.failure ?? process.errors)")
                }
                try afterEachRound()
            }
            for (name, process) in zip(writers, processes) {
                process.finish()
                try #require(process.process.terminationStatus == 0, "\(name): \(process.failure ?? process.errors)")
            }
        }

        /// What the store holds once the writers are done, read by a new coordinator.
        private struct StoreAfterWriters {
            let items: [ItemState]
            let token: NSPersistentHistoryToken

            init(_ url: URL) throws {
                let fresh = try SQLiteTestStack(model: CrashModel.make(), url: url, options: HistoryTestStore.options)
                defer { fresh.close() }
                let expected = CrashStoreState(saves: Dictionary(uniqueKeysWithValues: writers.map { ($0, savesEach) }))
                #expect(try fresh.context.performAndWait { try CrashStoreState(reading: fresh.context) }.differences(from: expected) == [])
                items = try fresh.context.performAndWait {
                    let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
                    request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
                    return try fresh.context.fetch(request).map(ItemState.init)
                }
                #expect(items.count == expected.batches.values.reduce(0) { $0 + $1.items.count })
                token = try #require(fresh.coordinator.currentPersistentHistoryToken(fromStores: nil))
            }
        }

        /// Waits for a follower to merge the transaction of `token`, and requires that it does.
        private static func requireMerged(_ follower: HistoryFollower, through token: NSPersistentHistoryToken, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let merged = follower.waitUntilMerged(through: token)
            try #require(merged, "merged through \(follower.lastToken.map(String.init(describing:)) ?? "nothing"), not \(token)", sourceLocation: sourceLocation)
        }

        /// Checks that a follower that merged the whole history holds what the store holds, that its
        /// controller reported each change the history held, and that the history is both writers'.
        private static func expect(_ follower: HistoryFollower, endsWith store: StoreAfterWriters, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(follower.failures.isEmpty, "\(follower.failures)", sourceLocation: sourceLocation)
            let shown = follower.items.states()
            #expect(shown == store.items, sourceLocation: sourceLocation)

            let transactions = follower.transactions
            let changes = transactions.flatMap { $0.changes ?? [] }.filter { $0.changedObjectID.entity.name == "Item" }
            let history = { (type: NSPersistentHistoryChangeType) in
                Set(changes.filter { $0.changeType == type }.map { $0.changedObjectID.uriRepresentation() })
            }
            let reported = follower.items.changes.reported
            let alive = Set(shown.map(\.uri))
            #expect(alive.isSubset(of: reported(.insert)), "every item alive was reported inserted", sourceLocation: sourceLocation)
            #expect(reported(.insert).isSubset(of: history(.insert)), sourceLocation: sourceLocation)
            #expect(reported(.delete) == reported(.insert).subtracting(alive), "every item reported inserted and gone was reported deleted", sourceLocation: sourceLocation)
            #expect(history(.update).intersection(alive).isSubset(of: reported(.update)), "every item alive that history updated was reported updated", sourceLocation: sourceLocation)
            #expect(reported(.update).isSubset(of: history(.update)), sourceLocation: sourceLocation)
            #expect(reported(.move).isEmpty, sourceLocation: sourceLocation)
            #expect(follower.items.changes.eachObjectIsInsertedFirstAndNothingFollowsItsDelete, sourceLocation: sourceLocation)

            #expect(Set(changes.map(\.changeType)) == [.insert, .update, .delete], sourceLocation: sourceLocation)
            // A writer replaces attachments, and its deletes take tags from other items.
            let updatedProperties = changes.filter { $0.changeType == .update }.flatMap { $0.updatedProperties ?? [] }.map(\.name)
            #expect(Set(updatedProperties) == ["attachment", "tags"], sourceLocation: sourceLocation)
            #expect(Set(transactions.map { $0.author ?? "no author" }) == Set(writers), sourceLocation: sourceLocation)
            for name in writers {
                #expect(transactions.count { $0.author == name } == savesEach, "\(name)'s transactions", sourceLocation: sourceLocation)
            }
            #expect(transactions.allSatisfy { $0.processID == "CoreDataCrashWriter" }, sourceLocation: sourceLocation)
            let numbers = transactions.map(\.transactionNumber)
            #expect(zip(numbers, numbers.dropFirst()).allSatisfy(<), "\(numbers)", sourceLocation: sourceLocation)
            #expect(transactions.last?.token == store.token, sourceLocation: sourceLocation)
        }
    }
}

/// What the reader shows of one item, read through its relationships as well.
private struct ItemState: Equatable, CustomStringConvertible {
    let uri: URL
    let name: String?
    let index: Int?
    let payload: Data?
    let attachment: Data?
    let batch: String?
    let followedBy: Int?
    let tags: Set<String>

    init(_ item: NSManagedObject) {
        uri = item.objectID.uriRepresentation()
        name = item.value(forKey: "name") as? String
        index = item.value(forKey: "index") as? Int
        payload = item.value(forKey: "payload") as? Data
        attachment = item.value(forKey: "attachment") as? Data
        let batch = item.value(forKey: "batch") as? NSManagedObject
        self.batch = batch.map { "\($0.value(forKey: "writer") ?? "?")-\($0.value(forKey: "number") ?? "?")" }
        followedBy = batch?.value(forKey: "followedBy") as? Int
        tags = Set(((item.value(forKey: "tags") as? NSSet)?.allObjects ?? []).compactMap { ($0 as? NSManagedObject)?.value(forKey: "name") as? String })
    }

    var description: String {
        "\(name ?? "nil") #\(index.map(String.init) ?? "nil") of \(batch ?? "nil") followed by \(followedBy.map(String.init) ?? "nil"), "
            + "payload \(payload?.count ?? -1) bytes, attachment \(attachment?.count ?? -1) bytes, tags \(tags.sorted())"
    }
}

/// Every item of a store, by name, in a fetched results controller of a private-queue context
/// whose delegate records every change it reports.
private final class FollowedItems {
    let context: NSManagedObjectContext
    let changes = ChangeRecorder()
    private let controller: NSFetchedResultsController<NSManagedObject>

    init(_ context: NSManagedObjectContext, of coordinator: NSPersistentStoreCoordinator) throws {
        self.context = context
        context.persistentStoreCoordinator = coordinator
        let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        controller.delegate = changes
        try context.performAndWait { try controller.performFetch() }
    }

    /// The controller's objects as they are now.
    func states() -> [ItemState] {
        context.performAndWait { controller.fetchedObjects?.map(ItemState.init) ?? [] }
    }
}

/// Records the object changes a fetched results controller reports, with the object's URI.
private final class ChangeRecorder: NSFetchedResultsControllerDelegate, Sendable {
    struct Change {
        let type: NSFetchedResultsChangeType
        let uri: URL
    }

    private let log = Mutex<[Change]>([])

    var all: [Change] {
        log.withLock { $0 }
    }

    /// The URIs of the objects reported with a change of one type.
    func reported(_ type: NSFetchedResultsChangeType) -> Set<URL> {
        Set(all.filter { $0.type == type }.map(\.uri))
    }

    /// Whether each object's first change is its insert, and none follows its delete.
    var eachObjectIsInsertedFirstAndNothingFollowsItsDelete: Bool {
        Dictionary(grouping: all, by: \.uri).values.allSatisfy { changes in
            changes.first?.type == .insert && changes.dropLast().allSatisfy { $0.type != .delete }
        }
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                    at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
        guard let object = anObject as? NSManagedObject else { return }
        log.withLock { $0.append(Change(type: type, uri: object.objectID.uriRepresentation())) }
    }
}

/// This process's reader, as Apple's "Consuming relevant store changes" describes it: on each
/// `NSPersistentStoreRemoteChange`, its view context reads the history after the last token it
/// processed, merges each transaction with `mergeChanges(fromContextDidSave:)` of the
/// transaction's `objectIDNotification()`, and keeps the last transaction's token. It writes
/// nothing, so it has no transactions of its own to leave out.
// Its token, transactions and failures are used only on the view context's queue; its observer
// is set once, in init.
private final class HistoryFollower: @unchecked Sendable {
    let items: FollowedItems
    private var processedToken: NSPersistentHistoryToken?
    private var merged: [NSPersistentHistoryTransaction] = []
    private var errors: [Error] = []
    private let notifiedNumbers = Mutex<[Int64]>([])
    private let passes = DispatchSemaphore(value: 0)
    private var observer: NSObjectProtocol?

    init(_ coordinator: NSPersistentStoreCoordinator) throws {
        items = try FollowedItems(NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType), of: coordinator)
        processedToken = coordinator.currentPersistentHistoryToken(fromStores: nil)
        observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: coordinator, queue: nil) { [weak self] notification in
            self?.storeDidChange(notification)
        }
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }

    private var context: NSManagedObjectContext { items.context }

    var lastToken: NSPersistentHistoryToken? { context.performAndWait { processedToken } }
    var transactions: [NSPersistentHistoryTransaction] { context.performAndWait { merged } }
    var failures: [Error] { context.performAndWait { errors } }

    /// The transaction number in each notification's token, in the order they came.
    var notifiedTransactionNumbers: [Int64] {
        notifiedNumbers.withLock { $0 }
    }

    /// Waits until the view context has merged the transaction of `token`; returns whether it did
    /// within a generous minute.
    func waitUntilMerged(through token: NSPersistentHistoryToken) -> Bool {
        let deadline = DispatchTime.now() + 60
        while lastToken != token {
            guard passes.wait(timeout: deadline) == .success else { return lastToken == token }
        }
        return true
    }

    private func storeDidChange(_ notification: Notification) {
        if let token = notification.userInfo?[NSPersistentHistoryTokenKey] as? NSPersistentHistoryToken {
            notifiedNumbers.withLock { $0 += token.transactionNumbers.values }
        }
        context.perform { self.mergeHistoryAfterLastToken() }
    }

    /// Merges every transaction after the last token, on the view context's queue.
    private func mergeHistoryAfterLastToken() {
        defer { passes.signal() }
        do {
            let result = try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: processedToken)) as? NSPersistentHistoryResult
            let transactions = result?.result as? [NSPersistentHistoryTransaction] ?? []
            for transaction in transactions {
                context.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
            }
            merged += transactions
            processedToken = transactions.last?.token ?? processedToken
        } catch {
            errors.append(error)
        }
    }
}
