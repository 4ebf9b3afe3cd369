#if canImport(CoreData)
import CoreData

extension CoreDataPeers {
    /// W6a ours: in `performAndWait` on the stack's fresh context, create an
    /// `NSFetchedResultsController` of every `SectionedItem` in sections by `section`, sorted by
    /// (`section`, `score`, `serial`) with `fetchBatchSize = 50`, give it a delegate, as an app
    /// does, and call `performFetch()`. Returns ``SectionedItemTable/sectionChecksum(sizes:)`` of
    /// its `sections`. The controller lives until tear-down, as an app keeps it.
    ///
    /// Set-up (not measured): the stack on the fixture copy.
    static var fetchSections: Peer {
        Peer(name: "ours-fetch", family: .ours) { input in
            let stack = try CoreDataItemStack(storeURL: input.storeURL, settings: input.settings, model: SectionedItemModel.make())
            let delegate = SectionedResultsDelegate()
            var controller: NSFetchedResultsController<NSManagedObject>?
            return PreparedRun(
                body: {
                    try stack.context.performAndWait {
                        let fetched = SectionedItemModel.makeController(in: stack.context)
                        fetched.delegate = delegate
                        try fetched.performFetch()
                        controller = fetched
                        return SectionedItemModel.checksum(of: fetched)
                    }
                },
                tearDown: {
                    // Released on the context's queue, with its objects.
                    stack.context.performAndWait { _ = controller.take() }
                    try stack.close()
                })
        }
    }

    /// W6b ours, delivery: a background context of the same coordinator saves W6b's changes
    /// (``SectionedItemTable/changes(count:)``: 100 updates, 50 inserts, 50 deletes), and the
    /// controller's context, a private-queue context with `automaticallyMergesChangesFromParent`,
    /// merges them on its queue; the controller applies them and its delegate's
    /// `controllerDidChangeContent(_:)` signals the waiting thread. Measured: from just before
    /// `save()` to that signal (the save, the merge, the controller's work and its delegate
    /// calls). Returns the section checksum the delegate read in `controllerDidChangeContent(_:)`;
    /// the run fails unless the delegate heard of the 200 object changes, in one batch.
    ///
    /// Set-up (not measured): the stack on the fixture copy, the controller fetched, the changes
    /// made in the background context. Tear-down (not measured) checks the controller against
    /// a new fetch of the object IDs in the same order, and its sections (W6's names, none
    /// empty, their sizes adding up to `count(for:)`).
    static var deliverChanges: Peer {
        Peer(name: "ours-delivery", family: .ours) { input in
            let tracked = try TrackedSectionedController(input: input, peer: "ours-delivery", mergesAutomatically: true)
            return PreparedRun(
                body: {
                    try tracked.background.performAndWait { try tracked.background.save() }
                    return try tracked.waitForDelivery()
                },
                tearDown: { try tracked.verifyAndClose() })
        }
    }

    /// W6b ours, merge only: the same without the save, which is SQLite work: the background
    /// context saves in set-up, and the measured body is the merge of its did-save notification
    /// with `mergeChanges(fromContextDidSave:)` in `performAndWait` on the controller's context,
    /// during which the controller applies the changes and calls its delegate.
    static var mergeChanges: Peer {
        Peer(name: "ours-merge", family: .ours) { input in
            let tracked = try TrackedSectionedController(input: input, peer: "ours-merge", mergesAutomatically: false)
            let saved = try tracked.saveInBackground()
            return PreparedRun(
                body: {
                    tracked.context.performAndWait { tracked.context.mergeChanges(fromContextDidSave: saved) }
                    return try tracked.waitForDelivery()
                },
                tearDown: { try tracked.verifyAndClose() })
        }
    }
}

/// W6's delegate, as a list view's would be: it counts the object changes of each batch and, in
/// `controllerDidChangeContent(_:)`, reads the section checksum and signals ``delivered``.
/// Called on the controller's context's queue; read by the measuring thread after ``delivered``.
final class SectionedResultsDelegate: NSFetchedResultsControllerDelegate {
    /// Signalled at the end of each batch of changes.
    let delivered = DispatchSemaphore(value: 0)
    /// The object changes of the last batch.
    private(set) var objectChanges = 0
    /// The batches delivered so far.
    private(set) var batches = 0
    /// ``SectionedItemTable/sectionChecksum(sizes:)`` of the sections after the last batch.
    private(set) var checksum: Int64 = 0

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        objectChanges = 0
    }

    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?,
        for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        objectChanges += 1
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        checksum = SectionedItemTable.sectionChecksum(sizes: (controller.sections ?? []).lazy.map(\.numberOfObjects))
        batches += 1
        delivered.signal()
    }
}

/// A W6b set-up: a stack on the fixture copy whose private-queue context has a fetched results
/// controller with a ``SectionedResultsDelegate``, and a background context of the same
/// coordinator holding W6b's changes, unsaved.
private final class TrackedSectionedController {
    let stack: CoreDataItemStack
    var context: NSManagedObjectContext { stack.context }
    let background: NSManagedObjectContext
    let controller: NSFetchedResultsController<NSManagedObject>
    let delegate: SectionedResultsDelegate
    let changes: SectionedItemTable.Changes
    let count: Int
    let peer: String

    /// How long the measuring thread waits for `controllerDidChangeContent(_:)` before failing.
    static let deliveryTimeout: DispatchTimeInterval = .seconds(60)

    init(input: PeerInput, peer: String, mergesAutomatically: Bool) throws {
        let changes = try SectionedItemTable.changes(count: input.count)
        let stack = try CoreDataItemStack(storeURL: input.storeURL, settings: input.settings, model: SectionedItemModel.make())
        let context = stack.context
        let controller = SectionedItemModel.makeController(in: context)
        let delegate = SectionedResultsDelegate()
        try context.performAndWait {
            context.automaticallyMergesChangesFromParent = mergesAutomatically
            controller.delegate = delegate
            try controller.performFetch()
        }
        let background = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        background.persistentStoreCoordinator = stack.coordinator
        try background.performAndWait {
            try SectionedItemModel.makeChanges(changes, in: background, peer: peer)
        }
        self.stack = stack
        self.background = background
        self.controller = controller
        self.delegate = delegate
        self.changes = changes
        self.count = input.count
        self.peer = peer
    }

    /// Saves the background context and returns its did-save notification.
    func saveInBackground() throws -> Notification {
        let box = NotificationBox()
        let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: background, queue: nil) {
            box.notification = $0
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try background.performAndWait { try background.save() }
        guard let notification = box.notification else {
            throw BenchmarkError.unexpectedValue(peer: peer, detail: "the background save posted no did-save notification")
        }
        return notification
    }

    /// Waits for the delegate's `controllerDidChangeContent(_:)` and returns the checksum it
    /// read; fails when it does not come or the batch did not report every change.
    func waitForDelivery() throws -> Int64 {
        guard delegate.delivered.wait(timeout: .now() + Self.deliveryTimeout) == .success else {
            throw BenchmarkError.unexpectedValue(peer: peer, detail: "controllerDidChangeContent was not called within \(Self.deliveryTimeout)")
        }
        guard delegate.objectChanges == changes.objectChangeCount else {
            throw BenchmarkError.unexpectedValue(
                peer: peer, detail: "the delegate heard of \(delegate.objectChanges) object changes, not \(changes.objectChangeCount)")
        }
        return delegate.checksum
    }

    /// Checks the controller's results after delivery (not measured), then closes the stack.
    func verifyAndClose() throws {
        do {
            try context.performAndWait { try verify() }
        } catch {
            try? stack.close()
            throw error
        }
        try stack.close()
    }

    /// The controller holds what a new fetch finds, in the same order, in W6's sections (none
    /// empty, sizes adding up to `count(for:)`), after exactly one batch of changes. Call it on
    /// the context's queue.
    private func verify() throws {
        guard delegate.batches == 1 else {
            throw BenchmarkError.unexpectedValue(peer: peer, detail: "\(delegate.batches) batches of changes delivered, not 1")
        }
        let request = NSFetchRequest<NSManagedObjectID>(entityName: SectionedItemTable.entityName)
        request.resultType = .managedObjectIDResultType
        request.sortDescriptors = SectionedItemModel.sortDescriptors
        let expected = try context.fetch(request)
        guard controller.fetchedObjects?.map(\.objectID) == expected else {
            throw BenchmarkError.unexpectedValue(peer: peer, detail: "the controller's objects differ from a new fetch's")
        }
        let sections = controller.sections ?? []
        let names = (0..<SectionedItemTable.sectionCount(count: count)).map(SectionedItemTable.sectionName)
        guard sections.map(\.name) == names, sections.allSatisfy({ $0.numberOfObjects > 0 }) else {
            throw BenchmarkError.unexpectedValue(peer: peer, detail: "the controller's sections are not W6's \(names.count) non-empty sections")
        }
        let counted = try context.count(for: NSFetchRequest<NSManagedObject>(entityName: SectionedItemTable.entityName))
        let held = sections.reduce(0) { $0 + $1.numberOfObjects }
        guard held == counted else {
            throw BenchmarkError.unexpectedValue(peer: peer, detail: "the sections hold \(held) objects, count(for:) \(counted)")
        }
    }
}

/// Where a notification observer leaves the notification it received: written on the posting
/// thread during `save()`, read by the thread that called `performAndWait` after it returns.
private final class NotificationBox: @unchecked Sendable {
    var notification: Notification?
}
#endif
