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

        /// The object changes, sorted, as their order in a batch is unspecified.
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
    init(items: [(serial: Int64, score: Int16, group: String)], sectioned: Bool = false, predicate: String? = nil, startTracking: Bool = true) throws {
        stack = try CtxStack(model: RankedItemModel.make())
        let request = NSFetchRequest<NSManagedObject>(entityName: "RankedItem")
        request.sortDescriptors = (sectioned ? [NSSortDescriptor(key: "group", ascending: true)] : [])
            + [NSSortDescriptor(key: "score", ascending: true), NSSortDescriptor(key: "serial", ascending: true)]
        request.predicate = predicate.map { NSPredicate(format: $0) }
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

    /// Runs `body` on the context's queue, then processes pending changes, and returns the
    /// callbacks; records the simulated table's problems as issues.
    func change(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) throws -> Batch {
        recorder.events = []
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
        let serial = object.flatMap { serials[ObjectIdentifier($0)] ?? ($0.value(forKey: "serial") as? Int64) }
        events.append("\(type) #\(serial.map(String.init) ?? "?") \(indexPath.map { "\($0)" } ?? "nil") -> \(newIndexPath.map { "\($0)" } ?? "nil")")
        table.controller(controller, didChange: anObject, at: indexPath, for: type, newIndexPath: newIndexPath)
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        events.append("did")
        table.controllerDidChangeContent(controller)
    }
}
