import Foundation
@testable import CoreData
import Testing

/// The table-view simulator refuses what UIKit refuses and what the specification forbids: it is
/// fed hand-made callbacks, right and wrong, for a controller whose content changed.
@Suite struct TableViewSimulatorTests {
    /// Items #1, #2, #3 with scores 1, 2, 3 (groups A, A, B), shown in a table; `change` alters
    /// the context and fetches again, so that the controller holds the new state while the
    /// test plays the callbacks a delegate would receive.
    private final class Scene {
        let stack: CtxStack
        let controller: NSFetchedResultsController<NSFetchRequestResult>
        let table: TableViewSimulator
        private(set) var items: [Int64: NSManagedObject] = [:]

        init(sectioned: Bool = false, sectionNameIsValid: @escaping (String) -> Bool = { _ in true },
             rowIsGone: ((NSManagedObject) -> Bool)? = nil) throws {
            table = TableViewSimulator(render: RankedItemModel.render, sectionNameIsValid: sectionNameIsValid, rowIsGone: rowIsGone)
            stack = try CtxStack(model: RankedItemModel.make(), storeType: NSInMemoryStoreType)
            let request = NSFetchRequest<NSFetchRequestResult>(entityName: "RankedItem")
            request.sortDescriptors = (sectioned ? [NSSortDescriptor(key: "group", ascending: true)] : [])
                + [NSSortDescriptor(key: "score", ascending: true), NSSortDescriptor(key: "serial", ascending: true)]
            // No delegate: the controller does not track, it shows what its last fetch found.
            controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: stack.context,
                                                    sectionNameKeyPath: sectioned ? "group" : nil, cacheName: nil)
            try stack.context.performAndWait {
                for (serial, score, group) in [(Int64(1), Int16(1), "A"), (2, 2, "A"), (3, 3, "B")] { insert(serial, score, group) }
                try controller.performFetch()
                table.reloadData(from: controller)
            }
        }

        subscript(serial: Int64) -> NSManagedObject { items[serial]! }

        @discardableResult
        func insert(_ serial: Int64, _ score: Int16, _ group: String) -> NSManagedObject {
            let item = ctxInsert("RankedItem", into: stack.context, ["serial": serial, "score": score, "group": group, "note": "n"])
            items[serial] = item
            return item
        }

        /// Changes the context, fetches again, and returns the problems of the callbacks `play`
        /// gives the table.
        func problems(after change: () -> Void, playing play: (TableViewSimulator, NSFetchedResultsController<NSFetchRequestResult>) -> Void) throws -> [String] {
            try stack.context.performAndWait {
                change()
                try controller.performFetch()
                play(table, controller)
            }
            return table.takeProblems()
        }

        var serials: [[Int64]] {
            stack.context.performAndWait {
                table.rows.map { $0.cells.map { $0.object.value(forKey: "serial") as? Int64 ?? -1 } }
            }
        }
    }

    private static func path(_ row: Int, _ section: Int = 0) -> IndexPath {
        IndexPath(row: row, section: section)
    }

    @Test func aRightBatchLeavesTheTableEqualToTheController() throws {
        let scene = try Scene()
        let problems = try scene.problems(after: {
            scene[3].setValue(Int16(0), forKey: "score")
            scene.insert(4, 5, "A")
            scene.stack.context.delete(scene[1])
        }, playing: { table, controller in
            table.controllerWillChangeContent(controller)
            table.controller(controller, didChange: scene[1], at: Self.path(0), for: .delete, newIndexPath: nil)
            table.controller(controller, didChange: scene[3], at: Self.path(2), for: .move, newIndexPath: Self.path(0))
            table.controller(controller, didChange: scene[4], at: nil, for: .insert, newIndexPath: Self.path(2))
            table.controllerDidChangeContent(controller)
        })
        #expect(problems == [])
        #expect(scene.serials == [[3, 2, 4]])
    }

    @Test func aMissingInsertIsAnInvalidNumberOfRows() throws {
        let scene = try Scene()
        let problems = try scene.problems(after: { scene.insert(4, 5, "A") }, playing: { table, controller in
            table.controllerWillChangeContent(controller)
            table.controllerDidChangeContent(controller)
        })
        #expect(problems == [
            "Invalid update: invalid number of rows in section 0. The number of rows contained in an existing section after the update (4) must be equal to the number of rows contained in that section before the update (3), plus or minus the number of rows inserted or deleted from that section (0 inserted, 0 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 0 moved out).",
        ])
        #expect(scene.serials == [[1, 2, 3, 4]], "after a refused batch the table reloads its data")
    }

    @Test func aDeleteOfARowThatDoesNotExistIsRefused() throws {
        let scene = try Scene()
        let problems = try scene.problems(after: { scene.stack.context.delete(scene[3]) }, playing: { table, controller in
            table.controllerWillChangeContent(controller)
            table.controller(controller, didChange: scene[3], at: Self.path(7), for: .delete, newIndexPath: nil)
            table.controllerDidChangeContent(controller)
        })
        #expect(problems.contains("attempt to delete row 7 from section 0 which only contains 3 rows before the update"))
    }

    @Test func anInsertPastTheEndIsRefused() throws {
        let scene = try Scene()
        let problems = try scene.problems(after: { scene.insert(4, 5, "A") }, playing: { table, controller in
            table.controllerWillChangeContent(controller)
            table.controller(controller, didChange: scene[4], at: nil, for: .insert, newIndexPath: Self.path(5))
            table.controllerDidChangeContent(controller)
        })
        #expect(problems.contains("attempt to insert row 5 into section 0, but there are only 4 rows in section 0 after the update"))
    }

    @Test func aDeleteAndAReloadOfTheSameRowAreRefused() throws {
        let scene = try Scene()
        let problems = try scene.problems(after: { scene.stack.context.delete(scene[2]) }, playing: { table, controller in
            table.controllerWillChangeContent(controller)
            table.controller(controller, didChange: scene[2], at: Self.path(1), for: .delete, newIndexPath: nil)
            table.controller(controller, didChange: scene[3], at: Self.path(1), for: .update, newIndexPath: Self.path(1))
            table.controllerDidChangeContent(controller)
        })
        #expect(problems.contains("attempt to delete and reload the same index path ([0, 1])"))
    }

    @Test func anUpdateThatReordersRowsIsCaught() throws {
        let scene = try Scene()
        let problems = try scene.problems(after: { scene[3].setValue(Int16(0), forKey: "score") }, playing: { table, controller in
            table.controllerWillChangeContent(controller)
            table.controller(controller, didChange: scene[3], at: Self.path(2), for: .update, newIndexPath: Self.path(0))
            table.controllerDidChangeContent(controller)
        })
        #expect(problems.contains { $0.hasPrefix("(replay) the update of [#3 B0 n] reloads row [0, 2], which ends at [0, 2]") })
    }

    @Test func aMoveThatAnUpdateWouldDoIsCaughtButANeededOneIsNot() throws {
        let scene = try Scene()
        let needless = try scene.problems(after: { scene[2].setValue("changed", forKey: "note") }, playing: { table, controller in
            table.controllerWillChangeContent(controller)
            table.controller(controller, didChange: scene[2], at: Self.path(1), for: .move, newIndexPath: Self.path(1))
            table.controllerDidChangeContent(controller)
        })
        #expect(needless == ["move of [#2 A2 changed] from [0, 1] to the same index path, where an update would leave it (FRC-26)"])

        // #1 goes and #2 passes #3: #2 ends at its own index path, yet only a move puts it
        // after #3.
        let needed = try scene.problems(after: {
            scene.stack.context.delete(scene[1])
            scene[2].setValue(Int16(4), forKey: "score")
        }, playing: { table, controller in
            table.controllerWillChangeContent(controller)
            table.controller(controller, didChange: scene[1], at: Self.path(0), for: .delete, newIndexPath: nil)
            table.controller(controller, didChange: scene[2], at: Self.path(1), for: .move, newIndexPath: Self.path(1))
            table.controllerDidChangeContent(controller)
        })
        #expect(needed == [])
        #expect(scene.serials == [[3, 2]])
    }

    @Test func anObjectReportedTwiceIsCaught() throws {
        let scene = try Scene()
        let problems = try scene.problems(after: { scene[3].setValue(Int16(0), forKey: "score") }, playing: { table, controller in
            table.controllerWillChangeContent(controller)
            table.controller(controller, didChange: scene[3], at: Self.path(2), for: .move, newIndexPath: Self.path(0))
            table.controller(controller, didChange: scene[3], at: Self.path(2), for: .update, newIndexPath: Self.path(0))
            table.controllerDidChangeContent(controller)
        })
        #expect(problems.contains("[#3 B0 n] reported more than once in one batch (FRC-26)"))
    }

    @Test func aCallbackMustNameTheObjectTheControllerHoldsAtItsNewIndexPath() throws {
        let scene = try Scene()
        let problems = try scene.problems(after: { scene.insert(4, 0, "A") }, playing: { table, controller in
            table.controllerWillChangeContent(controller)
            table.controller(controller, didChange: scene[4], at: nil, for: .insert, newIndexPath: Self.path(3))
            table.controllerDidChangeContent(controller)
        })
        #expect(problems.contains("insert of [#4 A0 n] at new index path [0, 3], where the controller has [#3 B3 n] during the callback (FRC-31)"))
    }

    @Test func aSectionChangeAfterAnObjectChangeIsCaught() throws {
        let scene = try Scene(sectioned: true)
        let problems = try scene.problems(after: { scene[3].setValue("C", forKey: "group") }, playing: { table, controller in
            table.controllerWillChangeContent(controller)
            table.controller(controller, didChange: scene[3], at: Self.path(0, 1), for: .move, newIndexPath: Self.path(0, 1))
            if let section = controller.sections?[1] {
                table.controller(controller, didChange: section, atSectionIndex: 1, for: .insert)
            }
            table.controllerDidChangeContent(controller)
        })
        #expect(problems.contains("section change insert at 1 after an object change: sections come first (FRC-31)"))
        // The section delete is missing too: UIKit counts sections.
        #expect(problems.contains { $0.hasPrefix("Invalid update: invalid number of sections.") })
    }

    @Test func theRowsOfADeletedSectionMustBeReported() throws {
        let scene = try Scene(sectioned: true)
        let sectionB = try #require(scene.stack.context.performAndWait { scene.controller.sections?[1] })
        let problems = try scene.problems(after: { scene.stack.context.delete(scene[3]) }, playing: { table, controller in
            table.controllerWillChangeContent(controller)
            table.controller(controller, didChange: sectionB, atSectionIndex: 1, for: .delete)
            table.controllerDidChangeContent(controller)
        })
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("(replay) section 1 'B' deleted, but its row 0 ([#3 B3 n") == true)
    }

    @Test func aDeletedObjectCanOnlyLeaveTheResults() throws {
        let scene = try Scene()
        try scene.stack.context.performAndWait { try scene.stack.context.save() }
        let problems = try scene.problems(after: { scene.stack.context.delete(scene[2]) }, playing: { table, controller in
            table.controllerWillChangeContent(controller)
            table.controller(controller, didChange: scene[2], at: Self.path(1), for: .move, newIndexPath: Self.path(1))
            table.controllerDidChangeContent(controller)
        })
        #expect(problems.contains("move of [#2 A2 n, deleted], which is deleted: it can only leave the results"))
    }

    @Test func aDeleteOfAGoneRowMustReportADeletedObject() throws {
        let scene = try Scene(rowIsGone: { _ in true })
        let problems = try scene.problems(after: { scene[3].setValue(Int16(9), forKey: "score") }, playing: { table, controller in
            table.controllerWillChangeContent(controller)
            table.controller(controller, didChange: scene[3], at: Self.path(2), for: .delete, newIndexPath: nil)
            table.controllerDidChangeContent(controller)
        })
        #expect(problems.contains("delete of [#3 B9 n], whose row is gone, with isDeleted false"))
    }

    @Test func aSectionNoObjectCanHaveIsCaught() throws {
        let scene = try Scene(sectioned: true, sectionNameIsValid: { $0 != "C" })
        let sectionB = try #require(scene.stack.context.performAndWait { scene.controller.sections?[1] })
        let problems = try scene.problems(after: { scene[3].setValue("C", forKey: "group") }, playing: { table, controller in
            table.controllerWillChangeContent(controller)
            table.controller(controller, didChange: sectionB, atSectionIndex: 1, for: .delete)
            if let sectionC = controller.sections?[1] {
                table.controller(controller, didChange: sectionC, atSectionIndex: 1, for: .insert)
            }
            table.controller(controller, didChange: scene[3], at: Self.path(0, 1), for: .move, newIndexPath: Self.path(0, 1))
            table.controllerDidChangeContent(controller)
        })
        #expect(problems == ["section 'C' inserted at 1, a name no object has"])
    }

    @Test func updatesThatLeaveTheirCellAsItWasAreKept() throws {
        let scene = try Scene()
        let problems = try scene.problems(after: {
            scene[1].setValue(Int16(1), forKey: "score")
            scene[2].setValue("changed", forKey: "note")
        }, playing: { table, controller in
            table.controllerWillChangeContent(controller)
            table.controller(controller, didChange: scene[1], at: Self.path(0), for: .update, newIndexPath: Self.path(0))
            table.controller(controller, didChange: scene[2], at: Self.path(1), for: .update, newIndexPath: Self.path(1))
            table.controllerDidChangeContent(controller)
        })
        #expect(problems == [])
        #expect(scene.table.takeUnchangedUpdates().map(ObjectIdentifier.init) == [ObjectIdentifier(scene[1])])
    }
}
