@testable import CoreData
import Testing

/// A model of a `UITableView` driven by a fetched results controller, the way apps write it:
/// `controllerWillChangeContent` opens `performBatchUpdates`, section and row changes are queued
/// as `insertSections`/`deleteSections`/`insertRows`/`deleteRows`/`reloadRows` (a move as a
/// delete plus an insert), and `controllerDidChangeContent` closes the batch.
///
/// The batch is applied with UIKit's rules: deletes and reloads name index paths before the batch,
/// inserts name index paths after it; all deletes (sections and rows) go first, by descending
/// index, then all inserts by ascending index; a reloaded row keeps its slot through the batch and
/// shows, afterwards, what the controller has at the slot's final position (UIKit reloads the
/// cell of the row as it was before the batch, wherever the batch moves that row). Every batch UIKit
/// would refuse (raising `NSInternalInconsistencyException`) is recorded as a problem, with
/// UIKit's reason, and the table then reloads its data so that later batches are still checked.
///
/// The model is stricter than UIKit where the specification asks for it (semantics.md, section A,
/// "replay invariant"), and says so in each such problem:
/// - a new section starts empty and gets its rows from the insert callbacks (UIKit would read a
///   new section's rows from the data source), and every row of a deleted section must be reported
///   as deleted or moved away;
/// - a reloaded row must end where the controller shows the updated object: an update does not
///   reorder rows (FRC-24);
/// - a delete, move or update must name the object the table shows at its old index path, an
///   insert, move or update the object the controller has at its new index path, already during
///   the callback (FRC-31);
/// - callbacks come as will, sections, objects, did (FRC-31), each object at most once per batch,
///   no move that an update would do as well (a move to its own index path in the same section
///   where the row keeps its place among the rows the batch leaves alone, FRC-26), no section
///   change for a controller without sections (FRC-30);
/// - a deleted object is reported only as deleted, and then with `isDeleted` true when its row
///   is gone (`rowIsGone`), also when the delete came by a merge;
/// - no section is inserted under a name no object has (`sectionNameIsValid`), not even for the
///   time of one batch.
///
/// Each cell keeps the object it was configured with and the text it showed, read through
/// `render`: a change that the controller does not report leaves a cell showing old values,
/// which a comparison with a fresh fetch (see `rows`) reveals. Updates whose cell shows the same
/// text afterwards are kept (`takeUnchangedUpdates()`), so that a test can check that each was a
/// change of the object itself.
final class TableViewSimulator: NSFetchedResultsControllerDelegate {
    /// A configured cell: the object the data source gave for it and what it displays.
    struct Cell {
        let object: NSManagedObject
        let content: String
    }

    struct Section {
        let name: String
        var cells: [Cell]
    }

    /// The table as it is shown.
    private(set) var sections: [Section] = []
    /// Everything that went wrong, oldest first; `takeProblems()` hands them to the test.
    private(set) var problems: [String] = []
    /// How many batches (will ... did) the controller delivered.
    private(set) var batchCount = 0
    /// The callbacks of each batch since `takeBatchLogs()`, as text, for failure messages.
    private var batchLogs: [[String]] = []
    /// How many object changes of each type the controller reported.
    private(set) var objectChangeCounts: [NSFetchedResultsChangeType: Int] = [:]
    /// How many section changes of each type the controller reported.
    private(set) var sectionChangeCounts: [NSFetchedResultsChangeType: Int] = [:]

    /// The objects reported as updated whose cells showed the same text before and after.
    private var unchangedUpdates: [NSManagedObject] = []

    private let render: (NSManagedObject) -> String
    private let sectionNameIsValid: (String) -> Bool
    private let rowIsGone: ((NSManagedObject) -> Bool)?
    private var batch: PendingBatch?

    /// - Parameters:
    ///   - render: What a cell displays for an object (read when the cell is configured).
    ///   - sectionNameIsValid: Whether an object may have a section name; an inserted section
    ///     with another name is a problem.
    ///   - rowIsGone: Whether an object's row is no longer in the store, for the delete callbacks;
    ///     nil not to check them.
    init(render: @escaping (NSManagedObject) -> String, sectionNameIsValid: @escaping (String) -> Bool = { _ in true },
         rowIsGone: ((NSManagedObject) -> Bool)? = nil) {
        self.render = render
        self.sectionNameIsValid = sectionNameIsValid
        self.rowIsGone = rowIsGone
    }

    /// `reloadData()`: reads every section and row from the controller, as after `performFetch()`.
    func reloadData<Result>(from controller: NSFetchedResultsController<Result>) {
        sections = (controller.sections ?? []).map { section in
            Section(name: section.name, cells: (section.objects ?? []).map { configuredCell(for: $0) })
        }
    }

    /// The table's rows as (section name, cells).
    var rows: [(name: String, cells: [Cell])] {
        sections.map { ($0.name, $0.cells) }
    }

    /// Returns the problems found so far and forgets them.
    func takeProblems() -> [String] {
        defer { problems = [] }
        return problems
    }

    /// Returns the objects reported as updated whose cells show what they showed before, since
    /// the last call, and forgets them.
    func takeUnchangedUpdates() -> [NSManagedObject] {
        defer { unchangedUpdates = [] }
        return unchangedUpdates
    }

    /// Returns the callbacks of the batches since the last call, as text, and forgets them.
    func takeBatchLogs() -> [[String]] {
        defer { batchLogs = [] }
        return batchLogs
    }

    // MARK: The batch being collected

    /// The updates queued between `controllerWillChangeContent` and `controllerDidChangeContent`.
    private struct PendingBatch {
        /// The table before the batch, which deletes and reloads refer to.
        let before: [Section]
        var deletedSections: [Int] = []
        var insertedSections: [(index: Int, name: String)] = []
        var deletedRows: [IndexPath] = []
        var insertedRows: [(path: IndexPath, object: NSManagedObject)] = []
        var reloadedRows: [(path: IndexPath, object: NSManagedObject)] = []
        var reportedObjects = Set<ObjectIdentifier>()
        var sawObjectChange = false
        var log: [String] = []
        /// Moves whose old and new index paths are equal, in the same section: allowed only when
        /// the row really changes place among the rows the batch leaves alone.
        var movesToTheSamePath: [(path: IndexPath, name: String)] = []
        /// How many problems there were when the batch began.
        let problemsBefore: Int
    }

    /// A row while the batch is applied: where its cell comes from.
    private enum Slot {
        /// Untouched: the cell moves along with the rows around it.
        case kept(Cell)
        /// Reloaded: its cell is configured again at the slot's final position, which must hold
        /// the updated object.
        case reloaded(NSManagedObject, oldPath: IndexPath)
        /// Inserted (or the destination of a move): configured at its final position, which must
        /// hold the reported object.
        case inserted(NSManagedObject)
    }

    private struct SlotSection {
        let name: String
        /// The section's index before the batch; nil for an inserted section.
        let oldIndex: Int?
        var slots: [Slot]
    }

    // MARK: NSFetchedResultsControllerDelegate

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        if batch != nil {
            problems.append("controllerWillChangeContent while a batch is open (FRC-31)")
        }
        batch = PendingBatch(before: sections, problemsBefore: problems.count)
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: NSFetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {
        guard var batch else {
            problems.append("section change \(type) at \(sectionIndex) outside controllerWillChangeContent/controllerDidChangeContent (FRC-31)")
            return
        }
        defer { self.batch = batch }
        batch.log.append("section \(type) '\(sectionInfo.name)' at \(sectionIndex)")
        sectionChangeCounts[type, default: 0] += 1
        if controller.sectionNameKeyPath == nil {
            problems.append("section change \(type) at \(sectionIndex) from a controller without sections (FRC-30)")
        }
        if batch.sawObjectChange {
            problems.append("section change \(type) at \(sectionIndex) after an object change: sections come first (FRC-31)")
        }
        switch type {
        case .insert:
            batch.insertedSections.append((sectionIndex, sectionInfo.name))
            let current = controller.sections ?? []
            if !current.indices.contains(sectionIndex) || current[sectionIndex].name != sectionInfo.name {
                problems.append("section '\(sectionInfo.name)' inserted at \(sectionIndex), but the controller does not have it there during the callback (FRC-31)")
            }
            if !sectionNameIsValid(sectionInfo.name) {
                problems.append("section '\(sectionInfo.name)' inserted at \(sectionIndex), a name no object has")
            }
        case .delete:
            batch.deletedSections.append(sectionIndex)
            if batch.before.indices.contains(sectionIndex), batch.before[sectionIndex].name != sectionInfo.name {
                problems.append("section '\(sectionInfo.name)' deleted at \(sectionIndex), where the table shows section '\(batch.before[sectionIndex].name)'")
            }
        case .move, .update:
            problems.append("section change of type \(type) at \(sectionIndex): sections are only inserted or deleted (FRC-30)")
        }
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                    at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
        guard var batch else {
            problems.append("object change \(type) outside controllerWillChangeContent/controllerDidChangeContent (FRC-31)")
            return
        }
        defer { self.batch = batch }
        batch.sawObjectChange = true
        objectChangeCounts[type, default: 0] += 1
        guard let object = anObject as? NSManagedObject else {
            problems.append("object change \(type) for \(anObject), which is not a managed object")
            return
        }
        let name = describe(object)
        batch.log.append("\(type) \(name) at \(indexPath.map { "\($0)" } ?? "nil") new \(newIndexPath.map { "\($0)" } ?? "nil")")
        if !batch.reportedObjects.insert(ObjectIdentifier(object)).inserted {
            problems.append("\(name) reported more than once in one batch (FRC-26)")
        }
        let oldPath = type == .insert ? nil : indexPath
        let newPath = type == .delete ? nil : newIndexPath
        if type == .insert, let indexPath { problems.append("insert of \(name) with an old index path \(indexPath) (FRC-23)") }
        if type == .delete, let newIndexPath { problems.append("delete of \(name) with a new index path \(newIndexPath) (FRC-23)") }
        if type != .insert, oldPath == nil { problems.append("\(type) of \(name) without its old index path (FRC-23)") }
        if type != .delete, newPath == nil { problems.append("\(type) of \(name) without its new index path (FRC-23)") }
        if type != .delete, object.isDeleted { problems.append("\(type) of \(name), which is deleted: it can only leave the results") }
        if type == .delete, !object.isDeleted, rowIsGone?(object) == true {
            problems.append("delete of \(name), whose row is gone, with isDeleted false")
        }

        if let oldPath {
            let shown = Self.cell(at: oldPath, in: batch.before)?.object
            if shown !== object {
                problems.append("\(type) of \(name) at old index path \(oldPath), where the table shows \(shown.map(describe) ?? "no row")")
            }
        }
        if let newPath {
            let held = Self.object(at: newPath, in: controller)
            if held !== object {
                problems.append("\(type) of \(name) at new index path \(newPath), where the controller has \(held.map(describe) ?? "no object") during the callback (FRC-31)")
            }
        }
        switch type {
        case .insert:
            if let newPath { batch.insertedRows.append((newPath, object)) }
        case .delete:
            if let oldPath { batch.deletedRows.append(oldPath) }
        case .move:
            guard let oldPath, let newPath else { return }
            let oldSection = batch.before.indices.contains(oldPath.section) ? batch.before[oldPath.section].name : nil
            let newSection = (controller.sections ?? []).indices.contains(newPath.section) ? controller.sections?[newPath.section].name : nil
            if oldPath == newPath, oldSection == newSection {
                batch.movesToTheSamePath.append((oldPath, name))
            }
            batch.deletedRows.append(oldPath)
            batch.insertedRows.append((newPath, object))
        case .update:
            guard let oldPath else { return }
            batch.reloadedRows.append((oldPath, object))
            if Self.cell(at: oldPath, in: batch.before)?.content == render(object) { unchangedUpdates.append(object) }
        }
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        guard let batch else {
            problems.append("controllerDidChangeContent without controllerWillChangeContent (FRC-31)")
            return
        }
        self.batch = nil
        batchCount += 1
        batchLogs.append(batch.log)
        apply(batch, controller: controller)
        if problems.count != batch.problemsBefore {
            // UIKit would have raised; start the next batch from what the controller has.
            reloadData(from: controller)
        }
    }

    // MARK: Applying a batch with UIKit's rules

    private func apply(_ batch: PendingBatch, controller: NSFetchedResultsController<NSFetchRequestResult>) {
        let problemsBefore = problems.count
        let before = batch.before
        let current = controller.sections ?? []
        let deletedSections = Set(batch.deletedSections)
        let deletedRows = Set(batch.deletedRows)

        // Deletes and reloads name rows of the table before the batch.
        if deletedSections.count != batch.deletedSections.count {
            problems.append("a section deleted twice in one batch: \(batch.deletedSections.sorted())")
        }
        for section in deletedSections where !before.indices.contains(section) {
            problems.append("attempt to delete section \(section), but there are only \(before.count) sections before the update")
        }
        if deletedRows.count != batch.deletedRows.count {
            problems.append("a row deleted twice in one batch: \(batch.deletedRows.sorted())")
        }
        for path in deletedRows.sorted() {
            if !before.indices.contains(path.section) {
                problems.append("attempt to delete row \(path.row) from section \(path.section), but there are only \(before.count) sections before the update")
            } else if !before[path.section].cells.indices.contains(path.row) {
                problems.append("attempt to delete row \(path.row) from section \(path.section) which only contains \(before[path.section].cells.count) rows before the update")
            }
        }
        var reloaded: [IndexPath: NSManagedObject] = [:]
        for (path, object) in batch.reloadedRows {
            if !before.indices.contains(path.section) || !before[path.section].cells.indices.contains(path.row) {
                problems.append("attempt to reload row \(path.row) in section \(path.section), which does not exist before the update")
            } else if deletedRows.contains(path) {
                problems.append("attempt to delete and reload the same index path (\(path))")
            } else if deletedSections.contains(path.section) {
                problems.append("attempt to reload row \(path.row) in section \(path.section), which is being deleted")
            } else if reloaded.updateValue(object, forKey: path) != nil {
                problems.append("row \(path) reloaded twice in one batch")
            }
        }
        // Stricter than UIKit: the rows of a deleted section must all be accounted for.
        for section in deletedSections where before.indices.contains(section) {
            for row in before[section].cells.indices where !deletedRows.contains(IndexPath(row: row, section: section)) {
                problems.append("(replay) section \(section) '\(before[section].name)' deleted, but its row \(row) (\(describe(before[section].cells[row].object))) was not reported as deleted or moved")
            }
        }
        guard problems.count == problemsBefore else { return }

        // All deletes, as if by descending index: every index refers to the table before the batch.
        var table: [SlotSection] = []
        for (sectionIndex, section) in before.enumerated() where !deletedSections.contains(sectionIndex) {
            var slots: [Slot] = []
            for (row, cell) in section.cells.enumerated() {
                let path = IndexPath(row: row, section: sectionIndex)
                if deletedRows.contains(path) { continue }
                slots.append(reloaded[path].map { .reloaded($0, oldPath: path) } ?? .kept(cell))
            }
            table.append(SlotSection(name: section.name, oldIndex: sectionIndex, slots: slots))
        }

        // Then all inserts by ascending index: every index refers to the table after the batch.
        let finalSectionCount = before.count - deletedSections.count + batch.insertedSections.count
        var insertedSectionIndexes = Set<Int>()
        for (index, name) in batch.insertedSections.sorted(by: { $0.index < $1.index }) {
            guard insertedSectionIndexes.insert(index).inserted else {
                problems.append("section \(index) inserted twice in one batch")
                return
            }
            guard index <= table.count else {
                problems.append("attempt to insert section \(index) but there are only \(finalSectionCount) sections after the update")
                return
            }
            table.insert(SlotSection(name: name, oldIndex: nil, slots: []), at: index)
        }
        var insertedPaths = Set<IndexPath>()
        for (path, object) in batch.insertedRows.sorted(by: { $0.path < $1.path }) {
            guard insertedPaths.insert(path).inserted else {
                problems.append("row \(path) inserted twice in one batch")
                return
            }
            guard table.indices.contains(path.section) else {
                problems.append("attempt to insert row \(path.row) into section \(path.section), but there are only \(table.count) sections after the update")
                return
            }
            guard path.row <= table[path.section].slots.count else {
                let after = current.indices.contains(path.section) ? current[path.section].numberOfObjects : table[path.section].slots.count
                problems.append("attempt to insert row \(path.row) into section \(path.section), but there are only \(after) rows in section \(path.section) after the update")
                return
            }
            table[path.section].slots.insert(.inserted(object), at: path.row)
        }

        // The table must now agree with the data source.
        guard table.count == current.count else {
            problems.append("Invalid update: invalid number of sections. The number of sections contained in the table view after the update (\(current.count)) must be equal to the number of sections contained in the table view before the update (\(before.count)), plus or minus the number of sections inserted or deleted (\(batch.insertedSections.count) inserted, \(deletedSections.count) deleted).")
            return
        }
        for (index, section) in table.enumerated() {
            let expected = current[index].numberOfObjects
            guard section.slots.count != expected else { continue }
            if let oldIndex = section.oldIndex {
                let deleted = deletedRows.filter { $0.section == oldIndex }.count
                let inserted = batch.insertedRows.filter { $0.path.section == index }.count
                problems.append("Invalid update: invalid number of rows in section \(index). The number of rows contained in an existing section after the update (\(expected)) must be equal to the number of rows contained in that section before the update (\(before[oldIndex].cells.count)), plus or minus the number of rows inserted or deleted from that section (\(inserted) inserted, \(deleted) deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 0 moved out).")
            } else {
                problems.append("(replay) section \(index) '\(section.name)' was inserted with \(section.slots.count) rows inserted into it, but the controller has \(expected)")
            }
        }
        for (index, section) in table.enumerated() where section.name != current[index].name {
            problems.append("section \(index) is '\(section.name)' in the table after the batch, but '\(current[index].name)' in the controller")
        }
        guard problems.count == problemsBefore else { return }

        for (path, name) in batch.movesToTheSamePath {
            // As an update, the row would keep its rank among the rows of its section that are not
            // deleted, and take the rank-th final index that no insert takes.
            let rank = (0..<path.row).filter { !deletedRows.contains(IndexPath(row: $0, section: path.section)) }.count
            let insertedRows = Set(batch.insertedRows.map(\.path).filter { $0.section == path.section && $0 != path }.map(\.row))
            var finalRow = 0, remaining = rank
            while insertedRows.contains(finalRow) || remaining > 0 {
                if !insertedRows.contains(finalRow) { remaining -= 1 }
                finalRow += 1
            }
            if finalRow == path.row {
                problems.append("move of \(name) from \(path) to the same index path, where an update would leave it (FRC-26)")
            }
        }

        // Reloaded and inserted rows are configured from the controller at their final positions.
        sections = table.enumerated().map { sectionIndex, section in
            Section(name: section.name, cells: section.slots.enumerated().map { row, slot in
                let path = IndexPath(row: row, section: sectionIndex)
                switch slot {
                case .kept(let cell):
                    return cell
                case .reloaded(let object, let oldPath):
                    let shown = Self.object(at: path, in: controller)
                    if shown !== object {
                        problems.append("(replay) the update of \(describe(object)) reloads row \(oldPath), which ends at \(path), where the controller has \(shown.map(describe) ?? "no object"): the update reordered rows and needed a move (FRC-24)")
                    }
                    return configuredCell(for: shown ?? object)
                case .inserted(let object):
                    let shown = Self.object(at: path, in: controller)
                    if shown !== object {
                        problems.append("the row inserted at \(path) for \(describe(object)) shows \(shown.map(describe) ?? "no object") from the controller")
                    }
                    return configuredCell(for: shown ?? object)
                }
            })
        }
    }

    // MARK: Helpers

    private func configuredCell(for object: Any) -> Cell {
        guard let object = object as? NSManagedObject else {
            preconditionFailure("the controller holds \(object), which is not a managed object")
        }
        return Cell(object: object, content: render(object))
    }

    /// How problems name an object: what its cell displays.
    private func describe(_ object: NSManagedObject) -> String {
        if object.managedObjectContext != nil, !object.isDeleted { return "[\(render(object))]" }
        // A deleted object is named by what its cell showed, while the table still has it.
        if let cell = sections.lazy.flatMap(\.cells).first(where: { $0.object === object }) { return "[\(cell.content), deleted]" }
        return "a deleted object"
    }

    private static func cell(at path: IndexPath, in sections: [Section]) -> Cell? {
        guard sections.indices.contains(path.section), sections[path.section].cells.indices.contains(path.row) else { return nil }
        return sections[path.section].cells[path.row]
    }

    /// The controller's object at an index path, or nil where it has none (`object(at:)` would trap).
    private static func object(at path: IndexPath, in controller: NSFetchedResultsController<NSFetchRequestResult>) -> NSManagedObject? {
        guard let sections = controller.sections, sections.indices.contains(path.section),
              let objects = sections[path.section].objects, objects.indices.contains(path.row) else { return nil }
        return controller.object(at: path) as? NSManagedObject
    }
}
