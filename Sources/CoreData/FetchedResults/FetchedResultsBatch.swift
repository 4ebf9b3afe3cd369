import Foundation

/// One batch of changes to a fetched results controller's results, as its delegate hears of them.
///
/// Made by applying the changed objects of one ObjectsDidChange notification to the content:
/// every changed object leaves its old place and enters its new one, both found by binary
/// search. An object that stays is a
/// move when its place among the objects that did not change is different, or its section is,
/// or its order among the changed objects that share its place (the fewest such moves);
/// otherwise it is an update, even when it shifted because others moved, as Apple's controller
/// reports since iOS 10.
struct FetchedResultsBatch {
    struct ObjectChange {
        let object: NSManagedObject
        let type: NSFetchedResultsChangeType
        /// Before the batch; nil for an insert.
        let indexPath: IndexPath?
        /// After the batch; nil for a delete.
        let newIndexPath: IndexPath?
    }

    struct SectionChange {
        let section: FetchedResultsSection
        /// Before the batch for a delete, after it for an insert.
        let index: Int
        let type: NSFetchedResultsChangeType
    }

    private(set) var sectionChanges: [SectionChange] = []
    private(set) var objectChanges: [ObjectChange] = []

    var isEmpty: Bool { sectionChanges.isEmpty && objectChanges.isEmpty }

    /// Applies changed objects to the content and returns the batch that describes it.
    ///
    /// - Parameters:
    ///   - changed: The objects the notification lists, each once.
    ///   - belongs: Whether an object belongs in the results now.
    init(applying changed: [NSManagedObject], to content: FetchedResultsContent, belongs: (NSManagedObject) -> Bool) {
        let oldSections = content.sections
        let oldStarts = content.sectionStarts()
        var leaving: [Placement] = []
        var entering: [(object: NSManagedObject, key: FetchedResultsKey)] = []
        for object in changed {
            if let path = content.indexPath(of: object) {
                leaving.append(Placement(object: object, path: path, position: oldStarts[path.section] + path.row, sectionName: oldSections[path.section].name))
            }
            if belongs(object), let key = try? content.order.key(of: object) {
                entering.append((object, key))
            }
        }
        guard !leaving.isEmpty || !entering.isEmpty else { return }

        content.remove(at: leaving.map(\.path))
        for (object, key) in entering { content.insert(object, key: key) }

        let newStarts = content.sectionStarts()
        var arrived: [ObjectIdentifier: Placement] = [:]
        for (object, _) in entering {
            guard let path = content.indexPath(of: object) else { continue }
            arrived[ObjectIdentifier(object)] = Placement(object: object, path: path, position: newStarts[path.section] + path.row, sectionName: content.sections[path.section].name)
        }
        sectionChanges = Self.sectionChanges(from: oldSections, to: content.sections, sectioned: content.isSectioned)
        objectChanges = Self.objectChanges(leaving: leaving, arrived: arrived, entering: entering.map(\.object))
    }

    /// Sections whose name is gone (deleted, old index) or new (inserted, new index).
    private static func sectionChanges(from old: [FetchedResultsSection], to new: [FetchedResultsSection], sectioned: Bool) -> [SectionChange] {
        guard sectioned else { return [] }
        let oldNames = Set(old.map(\.name))
        let newNames = Set(new.map(\.name))
        var changes: [SectionChange] = []
        for (index, section) in old.enumerated() where !newNames.contains(section.name) {
            changes.append(SectionChange(section: section, index: index, type: .delete))
        }
        for (index, section) in new.enumerated() where !oldNames.contains(section.name) {
            changes.append(SectionChange(section: section, index: index, type: .insert))
        }
        return changes
    }

    /// Where a changed object was, or is.
    private struct Placement {
        let object: NSManagedObject
        let path: IndexPath
        /// The position among the objects of all sections.
        let position: Int
        let sectionName: String
    }

    /// Inserts, deletes, and for objects that stayed a move or an update, decided by each
    /// object's place among the unchanged objects before and after (its position minus the
    /// changed objects before it), by its section, and by its order among the changed objects
    /// that share its place. They come in the order of the rows, old rows before new ones, not
    /// in the order of the notification's sets, so that a program sees the same calls each time.
    private static func objectChanges(leaving: [Placement], arrived: [ObjectIdentifier: Placement], entering: [NSManagedObject]) -> [ObjectChange] {
        let leaving = leaving.sorted { $0.position < $1.position }
        let entering = entering.sorted { (arrived[ObjectIdentifier($0)]?.position ?? 0) < (arrived[ObjectIdentifier($1)]?.position ?? 0) }
        let oldPositions = leaving.map(\.position)
        let newPositions = arrived.values.map(\.position).sorted()
        var changes: [ObjectChange] = []
        var stayed = Set<ObjectIdentifier>()
        // Objects that kept their section and their number of unchanged objects before them.
        var keptPlace: [(before: Placement, after: Placement, unchangedBefore: Int)] = []
        for before in leaving {
            guard let after = arrived[ObjectIdentifier(before.object)] else {
                changes.append(ObjectChange(object: before.object, type: .delete, indexPath: before.path, newIndexPath: nil))
                continue
            }
            stayed.insert(ObjectIdentifier(before.object))
            let unchangedBefore = unchangedObjects(before: before.position, changedAt: oldPositions)
            if before.sectionName != after.sectionName || unchangedBefore != unchangedObjects(before: after.position, changedAt: newPositions) {
                changes.append(ObjectChange(object: before.object, type: .move, indexPath: before.path, newIndexPath: after.path))
            } else {
                keptPlace.append((before, after, unchangedBefore))
            }
        }
        // Changed objects between the same two unchanged objects may still have changed order
        // among themselves (two rows swapped): the longest group of them that kept its order is
        // updated in place, the others move. An update does not reorder rows, so a table that
        // reloads updated rows where they were would otherwise show them in the old order.
        var inOrder = Set<ObjectIdentifier>()
        for group in Dictionary(grouping: keptPlace, by: \.unchangedBefore).values {
            let byNewPosition = group.sorted { $0.after.position < $1.after.position }
            for index in longestIncreasingRun(byNewPosition.map(\.before.position)) {
                inOrder.insert(ObjectIdentifier(byNewPosition[index].before.object))
            }
        }
        for (before, after, _) in keptPlace {
            let type: NSFetchedResultsChangeType = inOrder.contains(ObjectIdentifier(before.object)) ? .update : .move
            changes.append(ObjectChange(object: before.object, type: type, indexPath: before.path, newIndexPath: after.path))
        }
        for object in entering where !stayed.contains(ObjectIdentifier(object)) {
            guard let after = arrived[ObjectIdentifier(object)] else { continue }
            changes.append(ObjectChange(object: object, type: .insert, indexPath: nil, newIndexPath: after.path))
        }
        return changes
    }

    /// The indexes of a longest strictly increasing subsequence of `values` (patience sorting).
    /// Among equally long ones it ends with the smallest values, so of two swapped objects the
    /// one that was first stays and the other moves, as Apple's controller reports a swap.
    private static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        // tails[k]: the index of the smallest value ending an increasing run of length k + 1.
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run: [Int] = []
        var index = tails.last ?? -1
        while index >= 0 {
            run.append(index)
            index = previous[index]
        }
        return run
    }

    /// How many unchanged objects come before `position`, given the sorted positions of the
    /// changed objects.
    private static func unchangedObjects(before position: Int, changedAt positions: [Int]) -> Int {
        var low = 0, high = positions.count
        while low < high {
            let middle = (low + high) / 2
            if positions[middle] < position { low = middle + 1 } else { high = middle }
        }
        return position - low
    }
}
