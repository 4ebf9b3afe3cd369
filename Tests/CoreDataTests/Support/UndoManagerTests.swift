import Foundation
import Testing
@testable import CoreData

@Suite struct UndoManagerTests {
    // MARK: Undo and redo

    @Test func undoesAndRedoesASingleAction() {
        let manager = UndoManager()
        let document = Document(undoManager: manager)

        document.setText("draft")
        #expect(manager.canUndo)
        #expect(!manager.canRedo)

        manager.undo()
        #expect(document.text == "")
        #expect(!manager.canUndo)
        #expect(manager.canRedo)

        manager.redo()
        #expect(document.text == "draft")
        #expect(manager.canUndo)
        #expect(!manager.canRedo)
    }

    @Test func newRegistrationClearsTheRedoStack() {
        let manager = UndoManager()
        let document = Document(undoManager: manager)
        document.setText("draft")
        manager.undo()
        #expect(manager.canRedo)

        document.setText("other")

        #expect(!manager.canRedo)
        manager.redo()
        #expect(document.text == "other")
    }

    @Test func undoesAGroupInReverseOrderAndRedoesItAsOneGroup() {
        let manager = UndoManager()
        let journal = Journal()
        manager.beginUndoGrouping()
        for step in ["1", "2", "3"] {
            registerStep(step, on: journal, with: manager)
        }
        manager.endUndoGrouping()

        manager.undo()
        #expect(journal.entries == ["3", "2", "1"])
        #expect(!manager.canUndo)

        manager.redo()
        #expect(journal.entries == ["3", "2", "1", "1", "2", "3"])
        #expect(!manager.canRedo)

        manager.undo()
        #expect(journal.entries == ["3", "2", "1", "1", "2", "3", "3", "2", "1"])
        #expect(!manager.canUndo)
    }

    @Test func skipsActionsWhoseTargetIsGone() {
        let manager = UndoManager()
        let journal = Journal()
        manager.beginUndoGrouping()
        registerStep("kept", on: journal, with: manager)
        do {
            let shortLived = Journal()
            manager.registerUndo(withTarget: shortLived) { $0.entries.append("gone") }
        }
        manager.endUndoGrouping()

        manager.undo()

        #expect(journal.entries == ["kept"])
    }

    // MARK: Groups

    @Test func nestedGroupBecomesOneEntryOfTheOuterGroup() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        let journal = Journal()
        manager.beginUndoGrouping()
        registerStep("a", on: journal, with: manager)
        manager.beginUndoGrouping()
        #expect(manager.groupingLevel == 2)
        registerStep("b", on: journal, with: manager)
        registerStep("c", on: journal, with: manager)
        manager.endUndoGrouping()
        registerStep("d", on: journal, with: manager)
        manager.endUndoGrouping()
        #expect(manager.groupingLevel == 0)

        manager.undo()

        #expect(journal.entries == ["d", "c", "b", "a"])
        #expect(!manager.canUndo)
    }

    @Test func undoNestedGroupUndoesTheLastGroupClosedInsideTheOpenOne() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        let journal = Journal()
        manager.beginUndoGrouping()
        registerStep("outer", on: journal, with: manager)
        manager.beginUndoGrouping()
        registerStep("inner", on: journal, with: manager)
        manager.endUndoGrouping()

        manager.undoNestedGroup()
        #expect(journal.entries == ["inner"])
        #expect(manager.groupingLevel == 1)
        #expect(manager.canRedo)

        manager.endUndoGrouping()
        manager.undo()
        #expect(journal.entries == ["inner", "outer"])
    }

    @Test func emptyGroupsAreDiscarded() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        let journal = Journal()
        manager.beginUndoGrouping()
        registerStep("real", on: journal, with: manager)
        manager.endUndoGrouping()

        manager.beginUndoGrouping()
        manager.endUndoGrouping()
        manager.beginUndoGrouping()
        manager.beginUndoGrouping()
        manager.endUndoGrouping()
        manager.endUndoGrouping()

        manager.undo()
        #expect(journal.entries == ["real"])
        #expect(!manager.canUndo)
    }

    @Test func endingAGroupThatIsNotOpenIsIgnored() {
        let manager = UndoManager()

        manager.endUndoGrouping()

        #expect(manager.groupingLevel == 0)
    }

    // MARK: Grouping by event

    @Test func firstRegistrationOpensAnEventGroupThatEndEventGroupIfNeededCloses() {
        let manager = UndoManager()
        let journal = Journal()
        #expect(manager.groupsByEvent)

        registerStep("a", on: journal, with: manager)
        #expect(manager.groupingLevel == 1)
        registerStep("b", on: journal, with: manager)
        #expect(manager.groupingLevel == 1)
        manager.endEventGroupIfNeeded()
        #expect(manager.groupingLevel == 0)
        registerStep("c", on: journal, with: manager)
        manager.endEventGroupIfNeeded()

        manager.undo()
        #expect(journal.entries == ["c"])
        manager.undo()
        #expect(journal.entries == ["c", "b", "a"])
    }

    @Test func endEventGroupIfNeededLeavesExplicitGroupsOpen() {
        let manager = UndoManager()
        let journal = Journal()
        manager.beginUndoGrouping()
        registerStep("explicit", on: journal, with: manager)

        manager.endEventGroupIfNeeded()
        #expect(manager.groupingLevel == 1)
        manager.endUndoGrouping()

        registerStep("event", on: journal, with: manager)
        manager.beginUndoGrouping()
        manager.endEventGroupIfNeeded()
        #expect(manager.groupingLevel == 2)
    }

    @Test func endEventGroupIfNeededCalledByACheckpointObserverClosesTheGroupOnce() {
        let manager = UndoManager()
        let journal = Journal()
        let observer = NotificationCenter.default.addObserver(
            forName: .NSUndoManagerCheckpoint, object: manager, queue: nil
        ) { notification in
            (notification.object as? UndoManager)?.endEventGroupIfNeeded()
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        registerStep("first", on: journal, with: manager)
        manager.endEventGroupIfNeeded()
        registerStep("second", on: journal, with: manager)

        manager.endEventGroupIfNeeded()

        #expect(manager.groupingLevel == 0)
        manager.undo()
        #expect(journal.entries == ["second"])
        #expect(manager.canUndo)
    }

    @Test func setActionNameOpensTheEventGroupForTheRegistrationsThatFollow() {
        let manager = UndoManager()
        let document = Document(undoManager: manager)
        document.setText("one")
        manager.endEventGroupIfNeeded()

        manager.setActionName("Typing")
        document.setText("two")
        manager.endEventGroupIfNeeded()

        #expect(manager.undoActionName == "Typing")
        manager.undo()
        #expect(document.text == "one")
        #expect(manager.undoActionName == "")
    }

    @Test func withoutGroupsByEventRegistrationNeedsAnExplicitGroup() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        let journal = Journal()

        registerStep("ignored", on: journal, with: manager)
        #expect(manager.groupingLevel == 0)
        #expect(!manager.canUndo)

        manager.beginUndoGrouping()
        registerStep("kept", on: journal, with: manager)
        manager.undo()
        #expect(journal.entries.isEmpty)
        #expect(manager.groupingLevel == 1)

        manager.endUndoGrouping()
        manager.undo()
        #expect(journal.entries == ["kept"])
    }

    // MARK: Limits and registration

    @Test func levelsOfUndoDropsTheOldestGroups() {
        let manager = UndoManager()
        let journal = Journal()
        manager.levelsOfUndo = 2
        for step in ["1", "2", "3"] {
            registerStep(step, on: journal, with: manager)
            manager.endEventGroupIfNeeded()
        }

        manager.undo()
        manager.undo()
        manager.undo()

        #expect(journal.entries == ["3", "2"])
    }

    @Test func loweringLevelsOfUndoDropsGroupsAtOnce() {
        let manager = UndoManager()
        let journal = Journal()
        for step in ["1", "2", "3"] {
            registerStep(step, on: journal, with: manager)
            manager.endEventGroupIfNeeded()
        }

        manager.levelsOfUndo = 1

        manager.undo()
        manager.undo()
        #expect(journal.entries == ["3"])
    }

    @Test func disablingRegistrationNests() {
        let manager = UndoManager()
        let journal = Journal()
        manager.disableUndoRegistration()
        manager.disableUndoRegistration()
        manager.enableUndoRegistration()
        #expect(!manager.isUndoRegistrationEnabled)

        registerStep("ignored", on: journal, with: manager)
        #expect(!manager.canUndo)

        manager.enableUndoRegistration()
        #expect(manager.isUndoRegistrationEnabled)
        manager.enableUndoRegistration()
        #expect(manager.isUndoRegistrationEnabled)
        manager.disableUndoRegistration()
        #expect(!manager.isUndoRegistrationEnabled)
    }

    // MARK: Removing actions

    @Test func removeAllActionsClearsBothStacksAndReenablesRegistration() {
        let manager = UndoManager()
        let document = Document(undoManager: manager)
        document.setText("one")
        manager.undo()
        document.setText("two")
        manager.disableUndoRegistration()

        manager.removeAllActions()

        #expect(!manager.canUndo)
        #expect(!manager.canRedo)
        #expect(manager.isUndoRegistrationEnabled)
    }

    @Test func removeAllActionsEmptiesOpenGroupsButKeepsThemOpen() {
        let manager = UndoManager()
        let journal = Journal()
        registerStep("pending", on: journal, with: manager)

        manager.removeAllActions()

        #expect(!manager.canUndo)
        #expect(manager.groupingLevel == 1)
        manager.endEventGroupIfNeeded()
        #expect(!manager.canUndo)
    }

    @Test func removeAllActionsWithTargetRemovesOnlyThatTargetsActions() {
        let manager = UndoManager()
        let kept = Journal()
        let removed = Journal()
        registerStep("kept", on: kept, with: manager)
        registerStep("removed", on: removed, with: manager)
        manager.endEventGroupIfNeeded()
        registerStep("removed alone", on: removed, with: manager)
        manager.endEventGroupIfNeeded()

        manager.removeAllActions(withTarget: removed)
        manager.removeAllActions(withTarget: "not an object")

        manager.undo()
        #expect(kept.entries == ["kept"])
        #expect(removed.entries.isEmpty)
        #expect(!manager.canUndo)
    }

    // MARK: Action names

    @Test func menuTitlesFollowTheGroupsActionNames() {
        let manager = UndoManager()
        let document = Document(undoManager: manager)
        #expect(manager.undoMenuItemTitle == "Undo")
        #expect(manager.redoMenuItemTitle == "Redo")

        document.setText("one")
        manager.setActionName("First")
        manager.endEventGroupIfNeeded()
        document.setText("two")
        manager.setActionName("Second")
        #expect(manager.undoActionName == "Second")
        #expect(manager.undoMenuItemTitle == "Undo Second")

        manager.undo()
        #expect(manager.undoMenuItemTitle == "Undo First")
        #expect(manager.redoActionName == "Second")
        #expect(manager.redoMenuItemTitle == "Redo Second")

        manager.redo()
        #expect(manager.undoActionName == "Second")
        #expect(manager.redoActionName == "")
    }

    @Test func namingAnInnerGroupNamesTheStepThatContainsIt() {
        let manager = UndoManager()
        let journal = Journal()
        registerStep("event", on: journal, with: manager)
        manager.beginUndoGrouping()
        registerStep("inner", on: journal, with: manager)
        manager.setActionName("Inner")
        manager.endUndoGrouping()

        manager.endEventGroupIfNeeded()

        #expect(manager.undoActionName == "Inner")
    }

    @Test func emptyActionNameRemovesTheName() {
        let manager = UndoManager()
        let document = Document(undoManager: manager)
        document.setText("one")
        manager.setActionName("Typing")

        manager.setActionName("")

        #expect(manager.undoMenuItemTitle == "Undo")
    }

    @Test func menuTitlesForActionNames() {
        let manager = UndoManager()

        #expect(manager.undoMenuTitle(forUndoActionName: "Paste") == "Undo Paste")
        #expect(manager.redoMenuTitle(forUndoActionName: "Paste") == "Redo Paste")
        #expect(manager.undoMenuTitle(forUndoActionName: "") == "Undo")
        #expect(manager.redoMenuTitle(forUndoActionName: "") == "Redo")
    }

    @Test func subclassesCustomizeMenuTitles() {
        let manager = FrenchUndoManager()
        let document = Document(undoManager: manager)
        document.setText("un")
        manager.setActionName("Frappe")

        #expect(manager.undoMenuItemTitle == "Annuler Frappe")
    }

    // MARK: Discardable actions

    @Test func discardableGroupsAreReportedOnBothStacks() {
        let manager = UndoManager()
        let document = Document(undoManager: manager)
        document.setText("scrolled")
        manager.setActionIsDiscardable(true)
        manager.endEventGroupIfNeeded()
        #expect(manager.undoActionIsDiscardable)

        manager.undo()
        #expect(manager.redoActionIsDiscardable)

        document.setText("edited")
        #expect(!manager.undoActionIsDiscardable)
    }

    @Test func closingADiscardableGroupSaysSoInTheUserInfo() {
        let manager = UndoManager()
        let document = Document(undoManager: manager)
        let log = EventLog(observing: manager, names: [.NSUndoManagerWillCloseUndoGroup, .NSUndoManagerDidCloseUndoGroup])
        document.setText("kept")
        manager.endEventGroupIfNeeded()
        document.setText("scrolled")
        manager.setActionIsDiscardable(true)
        manager.endEventGroupIfNeeded()

        #expect(log.events == [
            "NSUndoManagerWillCloseUndoGroupNotification",
            "NSUndoManagerDidCloseUndoGroupNotification",
            "NSUndoManagerWillCloseUndoGroupNotification discardable",
            "NSUndoManagerDidCloseUndoGroupNotification discardable",
        ])
    }

    // MARK: Misuse

    @Test func undoWithAnUnclosedNestedGroupIsIgnored() {
        let manager = UndoManager()
        let journal = Journal()
        manager.beginUndoGrouping()
        manager.beginUndoGrouping()
        registerStep("nested", on: journal, with: manager)

        manager.undo()
        manager.undoNestedGroup()

        #expect(journal.entries.isEmpty)
        #expect(manager.groupingLevel == 2)
        #expect(manager.canUndo)
    }

    @Test func undoAndRedoInsideHandlersAreIgnored() {
        let manager = UndoManager()
        let journal = Journal()
        registerStep("a", on: journal, with: manager)
        registerMeddler(with: manager)
        registerStep("b", on: journal, with: manager)
        manager.endEventGroupIfNeeded()
        registerStep("c", on: journal, with: manager)
        manager.endEventGroupIfNeeded()
        manager.undo()
        manager.undo()
        #expect(journal.entries == ["c", "b", "a"])

        manager.redo()
        #expect(journal.entries == ["c", "b", "a", "a", "b"])
        #expect(manager.canRedo)

        manager.undo()
        #expect(journal.entries == ["c", "b", "a", "a", "b", "b", "a"])
        #expect(!manager.canUndo)
    }

    // MARK: Notifications

    @Test func undoPostsWillUndoBeforeTheHandlersAndDidUndoAfter() {
        let manager = UndoManager()
        let journal = Journal()
        manager.groupsByEvent = false
        manager.beginUndoGrouping()
        manager.registerUndo(withTarget: journal) { _ in EventLog.mark("handler", for: manager) }
        manager.endUndoGrouping()
        let log = EventLog(observing: manager)

        manager.undo()

        let events = log.events
        #expect(events.first == "NSUndoManagerCheckpointNotification")
        #expect(events.dropFirst().first == "NSUndoManagerWillUndoChangeNotification")
        #expect(events.last == "NSUndoManagerDidUndoChangeNotification")
        #expect(events.filter { $0 == "handler" }.count == 1)
        #expect(!events.contains("NSUndoManagerWillRedoChangeNotification"))
    }

    @Test func redoPostsWillRedoBeforeTheHandlersAndDidRedoAfter() {
        let manager = UndoManager()
        let document = Document(undoManager: manager)
        document.setText("draft")
        manager.undo()
        let log = EventLog(observing: manager)

        manager.redo()

        let events = log.events
        #expect(events.first == "NSUndoManagerCheckpointNotification")
        #expect(events.dropFirst().first == "NSUndoManagerWillRedoChangeNotification")
        #expect(events.last == "NSUndoManagerDidRedoChangeNotification")
    }

    @Test func groupingPostsOpenAndCloseNotifications() {
        let manager = UndoManager()
        let log = EventLog(observing: manager)

        manager.beginUndoGrouping()
        manager.beginUndoGrouping()
        manager.endUndoGrouping()
        manager.endUndoGrouping()

        #expect(log.events == [
            "NSUndoManagerDidOpenUndoGroupNotification",
            "NSUndoManagerCheckpointNotification",
            "NSUndoManagerDidOpenUndoGroupNotification",
            "NSUndoManagerCheckpointNotification",
            "NSUndoManagerWillCloseUndoGroupNotification",
            "NSUndoManagerDidCloseUndoGroupNotification",
            "NSUndoManagerCheckpointNotification",
            "NSUndoManagerWillCloseUndoGroupNotification",
            "NSUndoManagerDidCloseUndoGroupNotification",
        ])
    }

    @Test func checkingTheRedoStackPostsACheckpoint() {
        let manager = UndoManager()
        let log = EventLog(observing: manager)

        _ = manager.canRedo

        #expect(log.events == ["NSUndoManagerCheckpointNotification"])
    }

    @Test func notificationNamesHaveApplesRawValues() {
        #expect(NSNotification.Name.NSUndoManagerCheckpoint.rawValue == "NSUndoManagerCheckpointNotification")
        #expect(NSNotification.Name.NSUndoManagerWillUndoChange.rawValue == "NSUndoManagerWillUndoChangeNotification")
        #expect(NSNotification.Name.NSUndoManagerDidUndoChange.rawValue == "NSUndoManagerDidUndoChangeNotification")
        #expect(NSNotification.Name.NSUndoManagerWillRedoChange.rawValue == "NSUndoManagerWillRedoChangeNotification")
        #expect(NSNotification.Name.NSUndoManagerDidRedoChange.rawValue == "NSUndoManagerDidRedoChangeNotification")
        #expect(NSNotification.Name.NSUndoManagerDidOpenUndoGroup.rawValue == "NSUndoManagerDidOpenUndoGroupNotification")
        #expect(NSNotification.Name.NSUndoManagerWillCloseUndoGroup.rawValue == "NSUndoManagerWillCloseUndoGroupNotification")
        #expect(NSNotification.Name.NSUndoManagerDidCloseUndoGroup.rawValue == "NSUndoManagerDidCloseUndoGroupNotification")
        #expect(NSUndoManagerGroupIsDiscardableKey == "NSUndoManagerGroupIsDiscardableKey")
    }

    // MARK: State during handlers

    @Test func reportsUndoingAndRedoingWhileHandlersRun() {
        let manager = UndoManager()
        let flags = Journal()
        manager.registerUndo(withTarget: flags) { [unowned manager] flags in
            flags.entries.append("undoing \(manager.isUndoing) redoing \(manager.isRedoing)")
            manager.registerUndo(withTarget: flags) { [unowned manager] flags in
                flags.entries.append("undoing \(manager.isUndoing) redoing \(manager.isRedoing)")
            }
        }

        manager.undo()
        manager.redo()

        #expect(flags.entries == ["undoing true redoing false", "undoing false redoing true"])
        #expect(!manager.isUndoing)
        #expect(!manager.isRedoing)
    }

    @Test func storesRunLoopModes() {
        let manager = UndoManager()
        #expect(manager.runLoopModes == [.default])

        manager.runLoopModes = [.common]

        #expect(manager.runLoopModes == [.common])
    }
}

// MARK: - Fixtures

/// A target whose undo operations record what they did.
private final class Journal {
    var entries: [String] = []
}

/// A text whose every change registers the change back, so it can be undone and redone.
private final class Document {
    let undoManager: UndoManager
    private(set) var text = ""

    init(undoManager: UndoManager) {
        self.undoManager = undoManager
    }

    func setText(_ newText: String) {
        let oldText = text
        undoManager.registerUndo(withTarget: self) { $0.setText(oldText) }
        text = newText
    }
}

private final class FrenchUndoManager: UndoManager {
    override func undoMenuTitle(forUndoActionName actionName: String) -> String {
        actionName.isEmpty ? "Annuler" : "Annuler \(actionName)"
    }
}

/// Registers an operation that appends `step` to the journal and registers itself again, so that
/// it can be undone and redone any number of times.
private func registerStep(_ step: String, on journal: Journal, with manager: UndoManager) {
    manager.registerUndo(withTarget: journal) { [unowned manager] journal in
        journal.entries.append(step)
        registerStep(step, on: journal, with: manager)
    }
}

/// Registers an operation that calls `undo()` and `redo()` from inside a handler, and registers
/// itself again.
private func registerMeddler(with manager: UndoManager) {
    manager.registerUndo(withTarget: manager) { manager in
        manager.undo()
        manager.redo()
        registerMeddler(with: manager)
    }
}

/// Records, in order, the undo manager notifications posted for one manager and the marks a
/// test adds from its handlers.
private final class EventLog: @unchecked Sendable {
    // Notifications arrive on the posting thread; the lock keeps the log consistent anyway.
    private let lock = NSLock()
    private var recorded: [String] = []
    private var observers: [NSObjectProtocol] = []

    static let allNames: [NSNotification.Name] = [
        .NSUndoManagerCheckpoint,
        .NSUndoManagerWillUndoChange,
        .NSUndoManagerDidUndoChange,
        .NSUndoManagerWillRedoChange,
        .NSUndoManagerDidRedoChange,
        .NSUndoManagerDidOpenUndoGroup,
        .NSUndoManagerWillCloseUndoGroup,
        .NSUndoManagerDidCloseUndoGroup,
    ]

    static let markName = NSNotification.Name("UndoManagerTests.mark")

    init(observing manager: UndoManager, names: [NSNotification.Name] = allNames) {
        for name in names + [Self.markName] {
            let observer = NotificationCenter.default.addObserver(forName: name, object: manager, queue: nil) {
                [unowned self] notification in
                self.record(notification)
            }
            observers.append(observer)
        }
    }

    deinit {
        observers.forEach(NotificationCenter.default.removeObserver)
    }

    var events: [String] {
        lock.withLock { recorded }
    }

    /// Adds `mark` to the log observing `manager`, between the notifications around it.
    static func mark(_ mark: String, for manager: UndoManager) {
        NotificationCenter.default.post(name: markName, object: manager, userInfo: ["mark": mark])
    }

    private func record(_ notification: Notification) {
        let event: String
        if let mark = notification.userInfo?["mark"] as? String {
            event = mark
        } else if notification.userInfo?[NSUndoManagerGroupIsDiscardableKey] as? Bool == true {
            event = "\(notification.name.rawValue) discardable"
        } else {
            event = notification.name.rawValue
        }
        lock.withLock { recorded.append(event) }
    }
}
