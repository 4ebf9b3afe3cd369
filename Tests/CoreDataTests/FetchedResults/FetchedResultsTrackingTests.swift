import Foundation
@testable import CoreData
import Testing

/// What a fetched results controller tells its delegate about each change of its context
/// (semantics.md section A, FRC-22 to FRC-38), in small scenarios with exact expectations. Every
/// legacy-delegate scenario also drives a `TableViewSimulator`, which must find nothing wrong.
///
/// The order among the object changes of one batch is unspecified (FRC-31), so they are compared
/// as sets; the section changes come before them, between will and did.
@Suite struct FetchedResultsTrackingTests {
    // MARK: FRC-24: minimal moves

    @Test func twoChangedRowsThatSwapAreOneMoveAndOneUpdate() throws {
        let fixture = try TrackingFixture(items: [(1, 1, "A"), (2, 2, "A"), (3, 5, "A")])
        let batch = try fixture.change {
            fixture[1].setValue(Int16(4), forKey: "score")
            fixture[2].setValue(Int16(0), forKey: "score")
        }
        // As Apple's controller reports a swap since iOS 10: one of the two moves, the other is
        // updated. Two updates would be wrong: a table reloads updated rows where they are, so
        // it would keep #1 before #2.
        #expect(batch.objectChanges == ["move #2 [0, 1] -> [0, 0]", "update #1 [0, 0] -> [0, 1]"])
        #expect(fixture.serials(in: 0) == [2, 1, 3])
    }

    @Test func theChangesOfABatchComeInTheOrderOfTheirRows() throws {
        let fixture = try TrackingFixture(items: (1...12).map { (Int64($0), Int16($0), "A") })
        let batch = try fixture.change {
            for serial in 13...24 { fixture.insert(serial: Int64(serial), score: Int16(serial), group: "A") }
            for serial in 1...6 { fixture.context.delete(fixture[Int64(serial)]) }
        }
        let deletes = (1...6).map { "delete #\($0) [0, \($0 - 1)] -> nil" }
        let inserts = (13...24).map { "insert #\($0) nil -> [0, \($0 - 7)]" }
        #expect(batch.events == ["will"] + deletes + inserts + ["did"])
    }

    // MARK: FRC-28: unrelated changes

    @Test func aChangeThatLeavesAnObjectOutsideTheResultsCallsNothing() throws {
        let fixture = try TrackingFixture(items: [(1, 1, "A"), (2, 5, "A")], predicate: "score >= 3")
        let outside = try fixture.change {
            fixture[1].setValue(Int16(2), forKey: "score")
            fixture[1].setValue("still outside", forKey: "note")
        }
        #expect(outside.events == [], "no will/did pair either")
        let otherEntity = try fixture.change {
            ctxInsert("Label", into: fixture.context, ["text": "unrelated"])
        }
        #expect(otherEntity.events == [])
        let entering = try fixture.change { fixture[1].setValue(Int16(3), forKey: "score") }
        #expect(entering.events == ["will", "insert #1 nil -> [0, 0]", "did"])
    }

    // MARK: FRC-23: index paths of inserts, deletes, moves and updates

    @Test func eachKindOfChangeCarriesItsOldAndNewIndexPaths() throws {
        let fixture = try TrackingFixture(items: [(1, 1, "A"), (2, 2, "A"), (3, 3, "A"), (4, 4, "A"), (5, 5, "A")])
        let batch = try fixture.change {
            fixture.context.delete(fixture[2])
            fixture.insert(serial: 6, score: 3, group: "A")
            fixture[5].setValue("changed", forKey: "note")
            fixture[1].setValue(Int16(4), forKey: "score")
        }
        // After: #3 (3), #6 (3), #1 (4), #4 (4), #5 (5), ties broken by serial.
        #expect(batch.sectionChanges == [])
        #expect(batch.objectChanges == [
            "delete #2 [0, 1] -> nil", "insert #6 nil -> [0, 1]", "move #1 [0, 0] -> [0, 2]", "update #5 [0, 4] -> [0, 4]",
        ])
        #expect(batch.events.first == "will" && batch.events.last == "did")
    }

    @Test func anUpdateNamesItsRowBeforeAndAfterTheBatch() throws {
        let fixture = try TrackingFixture(items: [(1, 1, "A"), (2, 2, "A"), (3, 3, "A"), (4, 4, "A")])
        let batch = try fixture.change {
            fixture.context.delete(fixture[1])
            fixture[4].setValue("changed", forKey: "note")
        }
        // The old path is the row to reload; the new one is where the object is now.
        #expect(batch.objectChanges == ["delete #1 [0, 0] -> nil", "update #4 [0, 3] -> [0, 2]"])
    }

    // MARK: FRC-30: sections

    @Test func anObjectOfANewGroupInsertsItsSectionAndMovesThere() throws {
        let fixture = try TrackingFixture(items: [(1, 1, "A"), (2, 2, "A"), (3, 1, "B")], sectioned: true)
        let batch = try fixture.change { fixture[2].setValue("C", forKey: "group") }
        #expect(batch.sectionChanges == ["section insert 'C' 2"])
        #expect(batch.objectChanges == ["move #2 [0, 1] -> [2, 0]"])
        #expect(batch.events.firstIndex(of: "section insert 'C' 2") == 1, "sections come before objects")
    }

    @Test func aGroupThatEmptiesDeletesItsSection() throws {
        let fixture = try TrackingFixture(items: [(1, 1, "A"), (2, 2, "A"), (3, 1, "B"), (4, 1, "C")], sectioned: true)
        let batch = try fixture.change { fixture[3].setValue("A", forKey: "group") }
        #expect(batch.sectionChanges == ["section delete 'B' 1"])
        #expect(batch.objectChanges == ["move #3 [1, 0] -> [0, 1]"])
        #expect(fixture.sectionNames == ["A", "C"])
    }

    @Test func anObjectMovingToAnExistingGroupIsOnlyAMove() throws {
        let fixture = try TrackingFixture(items: [(1, 1, "A"), (2, 2, "A"), (3, 1, "B")], sectioned: true)
        let batch = try fixture.change { fixture[1].setValue("B", forKey: "group") }
        #expect(batch.sectionChanges == [])
        #expect(batch.objectChanges == ["move #1 [0, 0] -> [1, 0]"])
    }

    @Test func insertingIntoANewGroupAndDeletingTheLastOfAGroupChangeSectionsAndRows() throws {
        let fixture = try TrackingFixture(items: [(1, 1, "A"), (2, 1, "B"), (3, 1, "D")], sectioned: true)
        let batch = try fixture.change {
            fixture.context.delete(fixture[2])
            fixture.insert(serial: 4, score: 1, group: "C")
        }
        #expect(batch.sectionChanges == ["section delete 'B' 1", "section insert 'C' 1"])
        #expect(batch.objectChanges == ["delete #2 [1, 0] -> nil", "insert #4 nil -> [1, 0]"])
    }

    @Test func theSingleSectionOfAControllerWithoutSectionsStaysWhenEmpty() throws {
        let fixture = try TrackingFixture(items: [(1, 1, "A")])
        let batch = try fixture.change { fixture.context.delete(fixture[1]) }
        #expect(batch.events == ["will", "delete #1 [0, 0] -> nil", "did"])
        #expect(fixture.sectionNames == [""])
        #expect(fixture.controller.sections?.first?.numberOfObjects == 0)
    }

    // MARK: FRC-22: invalidation and reset

    @Test func invalidatedObjectsAreReportedAsDeletes() throws {
        let fixture = try TrackingFixture(items: [(1, 1, "A"), (2, 2, "A"), (3, 3, "A")])
        // No operation of this library lists objects under NSInvalidatedObjectsKey yet (Apple's
        // contexts do when a store goes away); the notification is posted as a context would.
        let batch = try fixture.change {
            NotificationCenter.default.post(name: .NSManagedObjectContextObjectsDidChange, object: fixture.context,
                                            userInfo: [NSInvalidatedObjectsKey: Set([fixture[2]])])
        }
        #expect(batch.events == ["will", "delete #2 [0, 1] -> nil", "did"])
    }

    @Test func afterResetTheControllerReportsNothingUntilItFetchesAgain() throws {
        let fixture = try TrackingFixture(items: [(1, 1, "A"), (2, 2, "A")])
        let reset = try fixture.change { fixture.context.reset() }
        #expect(reset.events == [], "no per-object callbacks for NSInvalidatedAllObjectsKey")
        // This controller drops its results at a reset (Apple's documentation says only that the
        // program must call performFetch() again; whether Apple's controller keeps the
        // invalidated objects until then is not documented).
        fixture.context.performAndWait {
            #expect(fixture.controller.fetchedObjects == nil)
            #expect(fixture.controller.sections == nil)
        }
        let untracked = try fixture.change { fixture.insert(serial: 3, score: 3, group: "A") }
        #expect(untracked.events == [], "a controller without results does not track")

        try fixture.context.performAndWait { try fixture.controller.performFetch() }
        fixture.context.performAndWait { fixture.table.reloadData(from: fixture.controller) }
        let tracked = try fixture.change { fixture.insert(serial: 4, score: 0, group: "A") }
        #expect(tracked.events == ["will", "insert #4 nil -> [0, 0]", "did"])
    }

    // MARK: FRC-36, FRC-32, FRC-38: snapshot and difference delegates

    @Test func aSnapshotDelegateReceivesOnlySnapshots() throws {
        let fixture = try TrackingFixture(items: [(1, 1, "A"), (2, 2, "B")], sectioned: true, startTracking: false)
        let delegate = SnapshotDelegate()
        try fixture.context.performAndWait {
            fixture.controller.delegate = delegate
            try fixture.controller.performFetch()
        }
        // FRC-32: performFetch() hands a snapshot delegate the first snapshot.
        #expect(delegate.log.snapshots.count == 1)
        #expect(delegate.log.snapshots.first?.sectionIdentifiers == ["A", "B"])

        fixture.context.performAndWait {
            fixture[1].setValue("C", forKey: "group")
            fixture[2].setValue("changed", forKey: "note")
            fixture.insert(serial: 3, score: 0, group: "B")
            // Not a save: the snapshot names #3 by its temporary ID, which a save would replace.
            fixture.context.processPendingChanges()
        }
        #expect(delegate.log.legacyCalls == [], "no will/did, section or object callbacks")
        #expect(delegate.log.differences.isEmpty)
        let snapshot = try #require(delegate.log.snapshots.last)
        #expect(delegate.log.snapshots.count == 2)
        #expect(snapshot.sectionIdentifiers == ["B", "C"])
        #expect(snapshot.itemIdentifiersInSection(withIdentifier: "B") == [fixture[3].objectID, fixture[2].objectID])
        #expect(snapshot.itemIdentifiersInSection(withIdentifier: "C") == [fixture[1].objectID])
        // FRC-38: objects changed in place are marked for reloading.
        #expect(snapshot.reloadedItemIdentifiers == [fixture[2].objectID])
    }

    @Test func aDifferenceDelegateOfAControllerWithoutSectionsReceivesOnlyDifferences() throws {
        let fixture = try TrackingFixture(items: [(1, 1, "A"), (2, 2, "A"), (3, 3, "A")], startTracking: false)
        let delegate = DifferenceDelegate()
        try fixture.context.performAndWait {
            fixture.controller.delegate = delegate
            try fixture.controller.performFetch()
        }
        #expect(delegate.log.differences.isEmpty, "performFetch() sends no difference")
        let before = fixture.context.performAndWait { fixture.controller.fetchedObjects?.map(\.objectID) ?? [] }
        fixture.context.performAndWait {
            fixture.context.delete(fixture[1])
            fixture[3].setValue(Int16(0), forKey: "score")
            fixture.insert(serial: 4, score: 2, group: "A")
            fixture.context.processPendingChanges()
        }
        #expect(delegate.log.legacyCalls == [])
        let difference = try #require(delegate.log.differences.last)
        #expect(delegate.log.differences.count == 1)
        let after = fixture.context.performAndWait { fixture.controller.fetchedObjects?.map(\.objectID) ?? [] }
        #expect(before.applying(difference) == after)
        #expect(after == [fixture[3].objectID, fixture[2].objectID, fixture[4].objectID])
    }

    @Test func aDifferenceDelegateOfASectionedControllerReceivesTheLegacyCallbacks() throws {
        let fixture = try TrackingFixture(items: [(1, 1, "A"), (2, 2, "B")], sectioned: true, startTracking: false)
        let delegate = DifferenceDelegate()
        try fixture.context.performAndWait {
            fixture.controller.delegate = delegate
            try fixture.controller.performFetch()
        }
        fixture.context.performAndWait {
            fixture[1].setValue("B", forKey: "group")
            fixture.context.processPendingChanges()
        }
        #expect(delegate.log.differences.isEmpty)
        #expect(delegate.log.legacyCalls == ["will", "section delete", "move", "did"])
    }

    @Test func aLegacyDelegateHearsNothingFromPerformFetch() throws {
        let fixture = try TrackingFixture(items: [(1, 1, "A")], startTracking: false)
        let delegate = LegacyDelegate()
        try fixture.context.performAndWait {
            fixture.controller.delegate = delegate
            try fixture.controller.performFetch()
        }
        #expect(delegate.log.legacyCalls == [])
        #expect(delegate.log.snapshots.isEmpty && delegate.log.differences.isEmpty)
    }

    // MARK: Known issues of the context, outside the controller

    @Test func deletingAnUnsavedInsertedObjectIsReported() throws {
        let fixture = try TrackingFixture(items: [(1, 1, "A")])
        let insert = try fixture.change { fixture.insert(serial: 2, score: 2, group: "A") }
        #expect(insert.events == ["will", "insert #2 nil -> [0, 1]", "did"])
        let delete = try fixture.change { fixture.context.delete(fixture[2]) }
        let remaining = fixture.context.performAndWait { fixture.controller.fetchedObjects?.count }
        #expect(delete.events == ["will", "delete #2 [0, 1] -> nil", "did"])
        #expect(remaining == 1)
    }

    @Test func mergedUpdateOfAnUnregisteredObjectIsReported() throws {
        // #1 is saved outside the controller's context and does not match, so that context never
        // registers it.
        let fixture = try TrackingFixture(items: [(2, 5, "A")], predicate: "score >= 3")
        let other = fixture.stack.newContext()
        try other.performAndWait {
            ctxInsert("RankedItem", into: other, ["serial": Int64(1), "score": Int16(1), "group": "A"])
            try other.save()
        }
        let background = fixture.stack.newContext()
        let saves = CtxNotificationRecorder(.NSManagedObjectContextDidSave, object: background)
        try background.performAndWait {
            let item = try #require(try ctxFetch("RankedItem", in: background, "serial == 1").first)
            item.setValue(Int16(4), forKey: "score")
            try background.save()
        }
        let saved = try #require(saves.notifications.first)
        let merge = try fixture.change { fixture.context.mergeChanges(fromContextDidSave: saved) }
        // FRC-29: an object that a merge makes match is inserted, registered or not (fixed by
        // Apple in iOS 10).
        #expect(merge.objectChanges == ["insert #1 nil -> [0, 0]"])
    }
}

// MARK: - Merges

/// Saves of other contexts merged into the controller's context (FRC-21, FRC-29), also when they
/// arrive after the context read their rows.
@Suite struct FetchedResultsMergeTests {
    @Test(arguments: [0, 2])
    func aMergedDeleteReportsAnObjectThatIsDeleted(batchSize: Int) throws {
        let fixture = try TrackingFixture(items: [(1, 1, "A"), (2, 2, "A"), (3, 3, "A")], batchSize: batchSize)
        let saved = try fixture.saveElsewhere { other in
            for item in try ctxFetch("RankedItem", in: other, "serial IN %@", [[Int64(1), Int64(3)]]) { other.delete(item) }
        }
        let merge = try fixture.change { fixture.context.mergeChanges(fromContextDidSave: saved) }
        #expect(merge.objectChanges == ["delete #1 [0, 0] -> nil", "delete #3 [0, 2] -> nil"])
        #expect(fixture.deletesWereDeleted == [true, true])
    }

    @Test(arguments: [0, 2])
    func aMergeOfRowsTheLastFetchReadReportsNothing(batchSize: Int) throws {
        let fixture = try TrackingFixture(items: [(1, 1, "A"), (2, 2, "B")], sectioned: true, batchSize: batchSize)
        let saved = try fixture.saveElsewhere { other in
            ctxInsert("RankedItem", into: other, ["serial": Int64(3), "score": Int16(0), "group": "C", "note": "n"])
            ctxInsert("RankedItem", into: other, ["serial": Int64(4), "score": Int16(3), "group": "A", "note": "n"])
        }
        try fixture.context.performAndWait {
            try fixture.controller.performFetch()
            fixture.table.reloadData(from: fixture.controller)
        }
        #expect(fixture.sectionNames == ["A", "B", "C"])
        let merge = try fixture.change { fixture.context.mergeChanges(fromContextDidSave: saved) }
        #expect(merge.events == [], "the table shows these rows already")
    }

    @Test(arguments: [0, 2])
    func mergesThatArriveAfterALaterSaveDeletedTheirRowsReportOnlyDeletes(batchSize: Int) throws {
        let fixture = try TrackingFixture(items: [(1, 1, "A"), (2, 2, "B")], sectioned: true, batchSize: batchSize)
        let inserted = try fixture.saveElsewhere { other in
            ctxInsert("RankedItem", into: other, ["serial": Int64(3), "score": Int16(0), "group": "C", "note": "n"])
        }
        let moved = try fixture.saveElsewhere { other in
            try ctxFetch("RankedItem", in: other, "serial == 1")[0].setValue(Int16(5), forKey: "score")
        }
        let deleted = try fixture.saveElsewhere { other in
            for item in try ctxFetch("RankedItem", in: other, "serial IN %@", [[Int64(1), Int64(3)]]) { other.delete(item) }
        }
        // #3's row is gone when its insert arrives: nothing, and no section named "" for it.
        let insertMerge = try fixture.change { fixture.context.mergeChanges(fromContextDidSave: inserted) }
        #expect(insertMerge.events == [])
        // #1's row is gone when its update arrives: it is deleted, never moved.
        let moveMerge = try fixture.change { fixture.context.mergeChanges(fromContextDidSave: moved) }
        #expect(moveMerge.events == ["will", "section delete 'A' 0", "delete #1 [0, 0] -> nil", "did"])
        #expect(fixture.deletesWereDeleted == [true])
        let deleteMerge = try fixture.change { fixture.context.mergeChanges(fromContextDidSave: deleted) }
        #expect(deleteMerge.events == [])
        #expect(fixture.sectionNames == ["B"])
    }
}

// MARK: - Fixture

/// A store of `RankedItemModel` items, a controller over them (by score then serial, or by group,
/// score and serial with sections) and a delegate that records the callbacks as text and drives
/// a `TableViewSimulator`.
final class TrackingFixture {
    /// The callbacks of one change.
    struct Batch {
        /// Every callback in order: "will", "section insert 'C' 2", "move #2 [0, 1] -> [2, 0]", "did".
        let events: [String]

        var sectionChanges: [String] { events.filter { $0.hasPrefix("section ") } }

        /// The object changes, sorted by kind, to compare them whatever rows they came from
        /// (`theChangesOfABatchComeInTheOrderOfTheirRows` checks their order).
        var objectChanges: [String] {
            events.filter { $0 != "will" && $0 != "did" && !$0.hasPrefix("section ") }.sorted(by: Self.byKindThenText)
        }

        private static func byKindThenText(_ lhs: String, _ rhs: String) -> Bool {
            let kinds = ["delete", "insert", "move", "update"]
            let lhsKind = kinds.firstIndex { lhs.hasPrefix($0) } ?? kinds.count
            let rhsKind = kinds.firstIndex { rhs.hasPrefix($0) } ?? kinds.count
            return lhsKind != rhsKind ? lhsKind < rhsKind : lhs < rhs
        }
    }

    let stack: CtxStack
    let controller: NSFetchedResultsController<NSManagedObject>
    let table: TableViewSimulator
    private let recorder: RecordingDelegate
    private var items: [Int64: NSManagedObject] = [:]

    var context: NSManagedObjectContext { stack.context }

    /// - Parameters:
    ///   - items: (serial, score, group) of the items saved before the controller fetches.
    ///   - startTracking: Whether to set the recording delegate and fetch; when false, the test
    ///     sets its own delegate.
    init(items: [(serial: Int64, score: Int16, group: String)], sectioned: Bool = false, predicate: String? = nil, batchSize: Int = 0,
         startTracking: Bool = true) throws {
        stack = try CtxStack(model: RankedItemModel.make())
        let request = NSFetchRequest<NSManagedObject>(entityName: "RankedItem")
        request.sortDescriptors = (sectioned ? [NSSortDescriptor(key: "group", ascending: true)] : [])
            + [NSSortDescriptor(key: "score", ascending: true), NSSortDescriptor(key: "serial", ascending: true)]
        request.predicate = predicate.map { NSPredicate(format: $0) }
        request.fetchBatchSize = batchSize
        controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: stack.context,
                                                sectionNameKeyPath: sectioned ? "group" : nil, cacheName: nil)
        let table = TableViewSimulator(render: RankedItemModel.render)
        self.table = table
        recorder = RecordingDelegate(table: table)
        let context = stack.context
        try context.performAndWait {
            for (serial, score, group) in items { insert(serial: serial, score: score, group: group) }
            try context.save()
            guard startTracking else { return }
            controller.delegate = recorder
            try controller.performFetch()
            table.reloadData(from: controller)
        }
    }

    /// The item with a serial.
    subscript(serial: Int64) -> NSManagedObject {
        guard let item = items[serial] else { preconditionFailure("no item #\(serial)") }
        return item
    }

    /// Inserts an item into the controller's context (call it on the context's queue).
    @discardableResult
    func insert(serial: Int64, score: Int16, group: String) -> NSManagedObject {
        let item = ctxInsert("RankedItem", into: context, ["serial": serial, "score": score, "group": group, "note": "n"])
        items[serial] = item
        recorder.serials[ObjectIdentifier(item)] = serial
        return item
    }

    /// Whether each object reported deleted was `isDeleted` during its callback, since the last
    /// `change`.
    var deletesWereDeleted: [Bool] { recorder.deletesWereDeleted }

    /// Saves changes made in a new context of the same store, and returns the did-save
    /// notification to merge.
    func saveElsewhere(_ body: (NSManagedObjectContext) throws -> Void) throws -> Notification {
        let other = stack.newContext()
        let saves = CtxNotificationRecorder(.NSManagedObjectContextDidSave, object: other)
        defer { saves.stop() }
        try other.performAndWait {
            try body(other)
            try other.save()
        }
        return try #require(saves.notifications.first)
    }

    /// Runs `body` on the context's queue, then processes pending changes, and returns the
    /// callbacks; records the simulated table's problems as issues.
    func change(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) throws -> Batch {
        recorder.events = []
        recorder.deletesWereDeleted = []
        try context.performAndWait {
            try body()
            context.processPendingChanges()
        }
        for problem in table.takeProblems() {
            Issue.record("table view simulator: \(problem)", sourceLocation: sourceLocation)
        }
        return Batch(events: recorder.events)
    }

    /// The serials of a section, from the controller.
    func serials(in section: Int) -> [Int64] {
        context.performAndWait {
            (controller.sections?[section].objects ?? []).compactMap { ($0 as? NSManagedObject)?.value(forKey: "serial") as? Int64 }
        }
    }

    var sectionNames: [String] {
        context.performAndWait { controller.sections?.map(\.name) ?? [] }
    }
}

/// Records the legacy callbacks as text (objects named by serial) and passes them on to a table.
private final class RecordingDelegate: NSFetchedResultsControllerDelegate {
    let table: TableViewSimulator
    var events: [String] = []
    /// `isDeleted` of each object reported deleted, during its callback.
    var deletesWereDeleted: [Bool] = []
    /// The serial of each item, by identity: a deleted or invalidated object cannot be read.
    var serials: [ObjectIdentifier: Int64] = [:]

    init(table: TableViewSimulator) {
        self.table = table
    }

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        events.append("will")
        table.controllerWillChangeContent(controller)
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: NSFetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {
        events.append("section \(type) '\(sectionInfo.name)' \(sectionIndex)")
        table.controller(controller, didChange: sectionInfo, atSectionIndex: sectionIndex, for: type)
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                    at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
        let object = anObject as? NSManagedObject
        if type == .delete { deletesWereDeleted.append(object?.isDeleted ?? false) }
        let serial = object.flatMap { serials[ObjectIdentifier($0)] ?? ($0.value(forKey: "serial") as? Int64) }
        events.append("\(type) #\(serial.map(String.init) ?? "?") \(indexPath.map { "\($0)" } ?? "nil") -> \(newIndexPath.map { "\($0)" } ?? "nil")")
        table.controller(controller, didChange: anObject, at: indexPath, for: type, newIndexPath: newIndexPath)
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        events.append("did")
        table.controllerDidChangeContent(controller)
    }
}

/// What the delegates below received.
final class DelegateLog {
    var legacyCalls: [String] = []
    var snapshots: [NSDiffableDataSourceSnapshotReference] = []
    var differences: [CollectionDifference<NSManagedObjectID>] = []

    func legacyCall(_ call: String) {
        legacyCalls.append(call)
    }
}

// Swift has no optional protocol methods: each of the three delegates below is its own class
// (a subclass's method would not replace the protocol's default implementation), and the
// controller chooses what to call by what each class implements.

/// The legacy methods only.
private final class LegacyDelegate: NSFetchedResultsControllerDelegate {
    let log = DelegateLog()

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) { log.legacyCall("will") }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: NSFetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) { log.legacyCall("section \(type)") }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                    at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) { log.legacyCall("\(type)") }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) { log.legacyCall("did") }
}

/// The legacy methods and the difference method.
private final class DifferenceDelegate: NSFetchedResultsControllerDelegate {
    let log = DelegateLog()

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) { log.legacyCall("will") }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: NSFetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) { log.legacyCall("section \(type)") }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                    at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) { log.legacyCall("\(type)") }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) { log.legacyCall("did") }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChangeContentWith diff: CollectionDifference<NSManagedObjectID>) {
        log.differences.append(diff)
    }
}

/// Every change method: legacy, difference and snapshot.
private final class SnapshotDelegate: NSFetchedResultsControllerDelegate {
    let log = DelegateLog()

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) { log.legacyCall("will") }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: NSFetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) { log.legacyCall("section \(type)") }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                    at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) { log.legacyCall("\(type)") }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) { log.legacyCall("did") }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChangeContentWith diff: CollectionDifference<NSManagedObjectID>) {
        log.differences.append(diff)
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChangeContentWith snapshot: NSDiffableDataSourceSnapshotReference) {
        log.snapshots.append(snapshot)
    }
}
