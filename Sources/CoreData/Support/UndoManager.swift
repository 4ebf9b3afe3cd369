import Foundation

/// A general-purpose recorder of operations that enables undo and redo.
///
/// You register an undo operation with ``registerUndo(withTarget:handler:)``, giving the object
/// that changes and a closure that reverts the change. ``undo()`` performs the operations of the
/// latest undo group in reverse order; the operations those closures register in turn form one
/// redo group, which ``redo()`` performs.
///
/// Linux Foundation has no undo manager, so Core Data declares the class with Apple's name and
/// API. It differs from Apple's in three ways:
///
/// - Term: Grouping by event. Apple opens a group at the first registration in a pass of the run
///   loop and closes it when the pass ends. Linux programs rarely run a run loop, so the first
///   registration (or action name) while no group is open opens the group, and the managed object
///   context closes it when it processes pending changes.
/// - Term: Misuse. Where Apple raises `NSInternalInconsistencyException` (ending a group that is
///   not open, undoing with nested groups open, registering outside a group when
///   ``groupsByEvent`` is `false`, undoing or redoing while undoing or redoing, enabling
///   registration that is not disabled), this manager ignores the call.
/// - Term: Selectors. Linux has no Objective-C runtime, so there is no selector- or
///   invocation-based registration.
///
/// Like Apple's, an undo manager is not thread-safe: use each one from a single thread or actor.
open class UndoManager: NSObject {
    /// One registered operation.
    private struct Action {
        /// Held weakly because Apple keeps only an unowned reference, so that a target owning its
        /// undo manager makes no retain cycle. Unowned would crash when undoing an operation
        /// whose target is gone; weak lets the operation be skipped instead.
        weak var target: AnyObject?
        let perform: () -> Void
    }

    /// What an undo group holds: an operation, or a nested group closed inside it.
    private enum Entry {
        case action(Action)
        case group(Group)

        var isDiscardable: Bool {
            switch self {
            case .action: false
            case .group(let group): group.isDiscardable
            }
        }
    }

    /// Operations that undo or redo performs as one step, with the name and discardability that
    /// the Undo and Redo commands report for them.
    private struct Group {
        var entries: [Entry] = []
        var actionName = ""
        var isMarkedDiscardable = false

        var isEmpty: Bool { entries.isEmpty }

        /// The group's own name or, when it has none, the name of its latest named nested group,
        /// so that naming an inner group names the step the user undoes.
        var resolvedActionName: String {
            guard actionName.isEmpty else { return actionName }
            for case .group(let nested) in entries.reversed() {
                let name = nested.resolvedActionName
                if !name.isEmpty { return name }
            }
            return ""
        }

        /// Apple calls a group discardable when it contains only discardable actions: here, when
        /// it was marked so, or when every entry is a discardable nested group.
        var isDiscardable: Bool {
            isMarkedDiscardable || (!entries.isEmpty && entries.allSatisfy(\.isDiscardable))
        }

        func perform() {
            for entry in entries.reversed() {
                switch entry {
                case .action(let action): action.perform()
                case .group(let nested): nested.perform()
                }
            }
        }

        func removingActions(withTarget target: AnyObject) -> Group {
            var group = self
            group.entries = entries.compactMap { entry in
                switch entry {
                case .action(let action):
                    return action.target === target ? nil : entry
                case .group(let nested):
                    let remaining = nested.removingActions(withTarget: target)
                    return remaining.isEmpty ? nil : .group(remaining)
                }
            }
            return group
        }

        func appending(_ nested: Group) -> Group {
            var group = self
            group.entries.append(.group(nested))
            return group
        }
    }

    /// Which stack a replay's registrations go to.
    private enum Replay {
        case undo
        case redo
    }

    private var undoStack: [Group] = []
    private var redoStack: [Group] = []
    /// Groups begun and not yet ended, outermost first.
    private var openGroups: [Group] = []
    private var registrationDisableCount = 0
    private var replay: Replay?
    /// Whether the outermost open group was opened by a registration, not by
    /// ``beginUndoGrouping()``, so that ``endEventGroupIfNeeded()`` closes only that group.
    private var isEventGroupOpen = false
    /// Set while a checkpoint notification is out, so that ``endEventGroupIfNeeded()`` called
    /// by its observers does not close the group being closed again.
    private var isPostingCheckpoint = false

    /// Creates an undo manager with empty undo and redo stacks.
    public override init() {
        super.init()
    }

    // MARK: Registering undo operations

    /// Registers the specified closure to implement a single undo operation that the target
    /// receives.
    ///
    /// While the manager is undoing, the operation goes to the redo group being built; otherwise
    /// it goes to the undo stack, and a registration that is neither undoing nor redoing clears
    /// the redo stack. Nothing is recorded while registration is disabled.
    ///
    /// - Parameters:
    ///   - target: The target of the undo operation. The undo manager keeps a weak reference to
    ///     it; if the target is gone when the operation is undone, the operation is skipped.
    ///   - handler: A closure to execute when the operation is undone. It takes the target as
    ///     its argument; operate on it rather than on captured references to avoid retain cycles.
    open func registerUndo<TargetType: AnyObject>(
        withTarget target: TargetType,
        handler: @escaping (TargetType) -> Void
    ) {
        guard isUndoRegistrationEnabled else { return }
        let action = Action(target: target) { [weak target] in
            guard let target else { return }
            handler(target)
        }
        updateInnermostGroup { $0.entries.append(.action(action)) }
        if replay == nil {
            redoStack.removeAll()
        }
    }

    // MARK: Grouping operations

    /// Marks the beginning of an undo group.
    ///
    /// All undo operations registered before the matching ``endUndoGrouping()`` are undone
    /// together. Groups can nest.
    ///
    /// This method posts `NSUndoManagerCheckpoint` unless the group is a
    /// top-level group, then `NSUndoManagerDidOpenUndoGroup`.
    open func beginUndoGrouping() {
        if groupingLevel > 0 {
            postCheckpoint()
        }
        openGroups.append(Group())
        post(.NSUndoManagerDidOpenUndoGroup)
    }

    /// Marks the end of an undo group.
    ///
    /// A closed top-level group becomes one step on the undo stack (or the redo stack, while
    /// undoing); a closed nested group becomes one entry of the group around it. A group with no
    /// operations is discarded. Without an open group, the call is ignored.
    ///
    /// This method posts `NSUndoManagerCheckpoint` and
    /// `NSUndoManagerWillCloseUndoGroup` just before the group is closed,
    /// and `NSUndoManagerDidCloseUndoGroup` just after. The close
    /// notifications carry ``NSUndoManagerGroupIsDiscardableKey`` when the group is discardable.
    open func endUndoGrouping() {
        let level = groupingLevel
        guard level > 0 else { return }
        postCheckpoint()
        // A checkpoint observer may have opened or closed groups itself; the group this call
        // was meant to close is then no longer the innermost one.
        guard groupingLevel == level else { return }
        let isDiscardable = openGroups[level - 1].isDiscardable
        post(.NSUndoManagerWillCloseUndoGroup, discardable: isDiscardable)
        guard let group = openGroups.popLast() else { return }
        if openGroups.isEmpty {
            isEventGroupOpen = false
            pushClosedTopLevelGroup(group)
        } else if !group.isEmpty {
            openGroups[openGroups.count - 1].entries.append(.group(group))
        }
        post(.NSUndoManagerDidCloseUndoGroup, discardable: isDiscardable)
    }

    /// The number of nested undo groups (or redo groups, while undoing) that are open.
    ///
    /// `0` means no group is open.
    open var groupingLevel: Int {
        openGroups.count
    }

    /// A Boolean value that indicates whether the manager opens an undo group automatically.
    ///
    /// The default is `true`: the first registration while no group is open opens a group, which
    /// stays open until the managed object context processes its pending changes. If you turn
    /// automatic grouping off, you must begin a group before registering, and close it
    /// explicitly before invoking either ``undo()`` or ``undoNestedGroup()``.
    open var groupsByEvent = true

    /// The maximum number of top-level undo groups the manager holds.
    ///
    /// `0`, the default, means no limit. When closing a group makes a stack exceed the limit, the
    /// manager drops the oldest groups; lowering the limit drops them at once.
    open var levelsOfUndo = 0 {
        didSet {
            trimToLevelsOfUndo(&undoStack)
            trimToLevelsOfUndo(&redoStack)
        }
    }

    /// The run-loop modes in which Apple's manager groups by event.
    ///
    /// Stored for compatibility; this manager does not observe a run loop.
    open var runLoopModes: [RunLoop.Mode] = [.default]

    // MARK: Enabling and disabling undo

    /// Disables the recording of undo operations.
    ///
    /// Calls nest: ``enableUndoRegistration()`` must be invoked an equal number of times to
    /// re-enable registration.
    open func disableUndoRegistration() {
        registrationDisableCount += 1
    }

    /// Enables the recording of undo operations.
    ///
    /// Registration is re-enabled only when this call balances the last
    /// ``disableUndoRegistration()`` in effect. Without one in effect, the call is ignored.
    open func enableUndoRegistration() {
        guard registrationDisableCount > 0 else { return }
        registrationDisableCount -= 1
    }

    /// A Boolean value that indicates whether the recording of undo operations is enabled.
    ///
    /// The default is `true`.
    open var isUndoRegistrationEnabled: Bool {
        registrationDisableCount == 0
    }

    // MARK: Checking undo ability

    /// A Boolean value that indicates whether the manager has any actions to undo.
    ///
    /// Operations in open groups count, so `true` doesn't mean you can invoke ``undo()`` or
    /// ``undoNestedGroup()`` right away: you may have to close open groups first.
    open var canUndo: Bool {
        nextGroupToUndo != nil
    }

    /// A Boolean value that indicates whether the manager has any actions to redo.
    ///
    /// Because any undo operation registered clears the redo stack, reading this property posts
    /// `NSUndoManagerCheckpoint`, so that clients register their pending
    /// operations first.
    open var canRedo: Bool {
        postCheckpoint()
        return !redoStack.isEmpty
    }

    // MARK: Performing undo and redo

    /// Closes the top-level undo group if necessary, then performs the undo operations of the
    /// latest group.
    ///
    /// When ``groupsByEvent`` is `true` and one group is open, this method closes it with
    /// ``endUndoGrouping()`` first. It then invokes ``undoNestedGroup()``. With more than one
    /// group open, or while undoing or redoing, where Apple raises, the call is ignored.
    open func undo() {
        guard replay == nil, groupingLevel <= 1 else { return }
        if groupingLevel == 1 && groupsByEvent {
            endUndoGrouping()
        }
        undoNestedGroup()
    }

    /// Performs the undo operations in the last undo group, whether top-level or nested,
    /// recording the operations they register on the redo stack as a single group.
    ///
    /// With no group open, the last group of the undo stack is undone. With a group open, the
    /// last nested group closed inside it is undone; if the open group ends with an operation
    /// instead, or while undoing or redoing, the call is ignored.
    ///
    /// This method posts `NSUndoManagerCheckpoint` and
    /// `NSUndoManagerWillUndoChange` before it performs the undo
    /// operations, and `NSUndoManagerDidUndoChange` after.
    open func undoNestedGroup() {
        guard replay == nil else { return }
        postCheckpoint()
        guard let group = popGroupToUndo() else { return }
        post(.NSUndoManagerWillUndoChange)
        perform(group, as: .undo)
        post(.NSUndoManagerDidUndoChange, discardable: group.isDiscardable)
    }

    /// Performs the operations in the last group on the redo stack, if there are any, recording
    /// the operations they register on the undo stack as a single group.
    ///
    /// While undoing or redoing, the call is ignored.
    ///
    /// This method posts `NSUndoManagerCheckpoint` and
    /// `NSUndoManagerWillRedoChange` before it performs the redo
    /// operations, and `NSUndoManagerDidRedoChange` after.
    open func redo() {
        guard replay == nil else { return }
        postCheckpoint()
        guard let group = redoStack.popLast() else { return }
        post(.NSUndoManagerWillRedoChange)
        perform(group, as: .redo)
        post(.NSUndoManagerDidRedoChange, discardable: group.isDiscardable)
    }

    /// A Boolean value that indicates whether the manager is performing ``undo()`` or
    /// ``undoNestedGroup()``.
    open var isUndoing: Bool {
        replay == .undo
    }

    /// A Boolean value that indicates whether the manager is performing ``redo()``.
    open var isRedoing: Bool {
        replay == .redo
    }

    // MARK: Clearing undo operations

    /// Clears the undo and redo stacks and re-enables registration.
    ///
    /// Open groups lose their operations but stay open, so that the calls that will end them
    /// stay balanced.
    open func removeAllActions() {
        undoStack.removeAll()
        redoStack.removeAll()
        openGroups = openGroups.map { _ in Group() }
        registrationDisableCount = 0
    }

    /// Clears the undo and redo stacks of all operations registered with the specified target.
    ///
    /// Groups left empty are removed, except open ones. Registration is not re-enabled if it is
    /// disabled.
    ///
    /// - Parameter target: The target whose operations to remove. Only an object can be a target,
    ///   so a value removes nothing.
    open func removeAllActions(withTarget target: Any) {
        let object = target as AnyObject
        undoStack = undoStack.map { $0.removingActions(withTarget: object) }.filter { !$0.isEmpty }
        redoStack = redoStack.map { $0.removingActions(withTarget: object) }.filter { !$0.isEmpty }
        openGroups = openGroups.map { $0.removingActions(withTarget: object) }
    }

    // MARK: Managing the action name

    /// Sets the name of the action associated with the Undo or Redo command.
    ///
    /// The name belongs to the innermost open group: while undoing, the redo group being built.
    /// With no group open, it opens one when ``groupsByEvent`` is `true`, so that a name set
    /// before the operations are registered names them; otherwise the call is ignored.
    ///
    /// - Parameter actionName: The name of the action. An empty string removes the name.
    open func setActionName(_ actionName: String) {
        updateInnermostGroup { $0.actionName = actionName }
    }

    /// The name identifying the undo action, such as "Delete" for the command "Undo Delete".
    ///
    /// An empty string if no name has been assigned or if there is nothing to undo.
    open var undoActionName: String {
        nextGroupToUndo?.resolvedActionName ?? ""
    }

    /// The name identifying the redo action, such as "Delete" for the command "Redo Delete".
    ///
    /// An empty string if no name has been assigned or if there is nothing to redo. Undoing a
    /// group gives the redo group the undone group's name.
    open var redoActionName: String {
        redoStack.last?.resolvedActionName ?? ""
    }

    /// The title of the Undo menu command, such as "Undo Paste".
    ///
    /// "Undo" if no action name has been assigned.
    open var undoMenuItemTitle: String {
        undoMenuTitle(forUndoActionName: undoActionName)
    }

    /// The title of the Redo menu command, such as "Redo Paste".
    ///
    /// "Redo" if no action name has been assigned.
    open var redoMenuItemTitle: String {
        redoMenuTitle(forUndoActionName: redoActionName)
    }

    /// Returns the title of the Undo menu command for the identified action.
    ///
    /// Override this method to localize the title; the default is English.
    ///
    /// - Parameter actionName: The name of the undo action.
    /// - Returns: "Undo" followed by the action name, or "Undo" alone for an empty name.
    open func undoMenuTitle(forUndoActionName actionName: String) -> String {
        actionName.isEmpty ? "Undo" : "Undo \(actionName)"
    }

    /// Returns the title of the Redo menu command for the identified action.
    ///
    /// Override this method to localize the title; the default is English.
    ///
    /// - Parameter actionName: The name of the redo action.
    /// - Returns: "Redo" followed by the action name, or "Redo" alone for an empty name.
    open func redoMenuTitle(forUndoActionName actionName: String) -> String {
        actionName.isEmpty ? "Redo" : "Redo \(actionName)"
    }

    // MARK: Discardable actions

    /// Sets whether the current undo or redo group is discardable: safe to drop when a document
    /// cannot be saved, such as a change of the visible area.
    ///
    /// The flag belongs to the same group as ``setActionName(_:)``.
    ///
    /// - Parameter discardable: `true` if the group can be discarded.
    open func setActionIsDiscardable(_ discardable: Bool) {
        updateInnermostGroup { $0.isMarkedDiscardable = discardable }
    }

    /// A Boolean value that indicates whether the next undo action is discardable.
    open var undoActionIsDiscardable: Bool {
        nextGroupToUndo?.isDiscardable ?? false
    }

    /// A Boolean value that indicates whether the next redo action is discardable.
    open var redoActionIsDiscardable: Bool {
        redoStack.last?.isDiscardable ?? false
    }

    // MARK: Grouping by event

    /// Closes the undo group that a registration opened because ``groupsByEvent`` is `true`,
    /// standing in for the end of a run-loop pass on Apple platforms.
    ///
    /// Groups opened with ``beginUndoGrouping()`` are left alone, and so is the event group
    /// while a nested group is still open inside it. The call does nothing while a checkpoint
    /// notification is being posted, because closing a group posts one and its observers
    /// (contexts processing pending changes) call this method.
    func endEventGroupIfNeeded() {
        guard isEventGroupOpen, groupingLevel == 1, !isPostingCheckpoint else { return }
        endUndoGrouping()
    }

    // MARK: Private

    /// The open groups folded together as if closed now, else the last group on the undo stack.
    private var nextGroupToUndo: Group? {
        let pending = openGroups.reversed().reduce(nil as Group?) { inner, outer in
            guard let inner, !inner.isEmpty else { return outer }
            return outer.appending(inner)
        }
        if let pending, !pending.isEmpty {
            return pending
        }
        return undoStack.last
    }

    /// Applies `update` to the innermost open group, first opening the event group when none is
    /// open and ``groupsByEvent`` allows it.
    private func updateInnermostGroup(_ update: (inout Group) -> Void) {
        if openGroups.isEmpty {
            guard groupsByEvent else { return }
            beginUndoGrouping()
            isEventGroupOpen = true
        }
        // A subclass overriding beginUndoGrouping() may not have opened a group.
        guard !openGroups.isEmpty else { return }
        update(&openGroups[openGroups.count - 1])
    }

    /// Removes and returns the group ``undoNestedGroup()`` undoes: the last nested group closed
    /// inside the innermost open group or, with no group open, the last group on the undo stack.
    private func popGroupToUndo() -> Group? {
        guard let innermost = openGroups.indices.last else {
            return undoStack.popLast()
        }
        guard case .group(let nested)? = openGroups[innermost].entries.last else { return nil }
        openGroups[innermost].entries.removeLast()
        return nested
    }

    /// Performs `group` with the open groups set aside, collecting what its operations register
    /// into one new top-level group, which closing sends to the stack `replay` selects.
    private func perform(_ group: Group, as replay: Replay) {
        let setAside = (openGroups, isEventGroupOpen)
        openGroups = []
        isEventGroupOpen = false
        self.replay = replay
        beginUndoGrouping()
        // The new group names the same step as the performed one, so Redo after Undo (and Undo
        // after Redo) shows the same action name.
        if !openGroups.isEmpty {
            openGroups[0].actionName = group.resolvedActionName
            openGroups[0].isMarkedDiscardable = group.isDiscardable
        }
        group.perform()
        // Operations may leave groups they began open; close them so the new group is complete.
        for _ in 0..<groupingLevel {
            endUndoGrouping()
        }
        self.replay = nil
        (openGroups, isEventGroupOpen) = setAside
    }

    private func pushClosedTopLevelGroup(_ group: Group) {
        guard !group.isEmpty else { return }
        if replay == .undo {
            redoStack.append(group)
            trimToLevelsOfUndo(&redoStack)
        } else {
            undoStack.append(group)
            trimToLevelsOfUndo(&undoStack)
        }
    }

    private func trimToLevelsOfUndo(_ stack: inout [Group]) {
        guard levelsOfUndo > 0, stack.count > levelsOfUndo else { return }
        stack.removeFirst(stack.count - levelsOfUndo)
    }

    private func postCheckpoint() {
        let wasPostingCheckpoint = isPostingCheckpoint
        isPostingCheckpoint = true
        defer { isPostingCheckpoint = wasPostingCheckpoint }
        post(.NSUndoManagerCheckpoint)
    }

    private func post(_ name: NSNotification.Name, discardable: Bool = false) {
        let userInfo: [AnyHashable: Any]? = discardable ? [NSUndoManagerGroupIsDiscardableKey: NSNumber(value: true)] : nil
        NotificationCenter.default.post(name: name, object: self, userInfo: userInfo)
    }
}
