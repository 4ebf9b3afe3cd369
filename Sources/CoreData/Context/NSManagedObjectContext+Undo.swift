import Foundation

// Undo support. While the context has an undo manager, the setters, inserts and deletes of the
// current event record the state they are about to change (an UndoRecord). Processing pending
// changes registers the event's record as one undo action; performing it restores the recorded
// state directly, as Apple's Core Data does (custom accessors are not called), and registers the
// opposite record as the redo.
extension NSManagedObjectContext {
    // MARK: Recording

    /// Records a slot's value before a setter changes it, when the undo manager accepts
    /// registrations. Objects call it only while `undoRecord` is set.
    func recordUndoState(of object: NSManagedObject, slot: Int) {
        guard let undoRecord, undoManager?.isUndoRegistrationEnabled == true else { return }
        undoRecord.captureSlot(slot, of: object)
    }

    /// Records whether an object was in the context before the event inserted or deleted it.
    func recordUndoMembership(of object: NSManagedObject, existed: Bool) {
        guard let undoRecord, undoManager?.isUndoRegistrationEnabled == true else { return }
        undoRecord.captureMembership(of: object, existed: existed)
    }

    /// Starts or stops recording when the undo manager is set, and follows the new manager's
    /// checkpoints: the manager posts one before it opens or closes a group and before it undoes
    /// or redoes, and processing pending changes then registers the changes not registered yet,
    /// as Apple's context does.
    func undoManagerDidChange() {
        if let undoCheckpointObserver {
            NotificationCenter.default.removeObserver(undoCheckpointObserver)
            self.undoCheckpointObserver = nil
        }
        guard let undoManager else {
            undoRecord = nil
            return
        }
        if undoRecord == nil {
            undoRecord = UndoRecord()
        }
        undoCheckpointObserver = NotificationCenter.default.addObserver(forName: .NSUndoManagerCheckpoint, object: undoManager, queue: nil) { [weak self] _ in
            self?.processPendingChanges()
        }
    }

    /// Forgets the changes recorded for the current event and every undo action (rollback, reset).
    func discardUndoHistory() {
        guard let undoManager else { return }
        undoRecord = UndoRecord()
        undoManager.removeAllActions()
    }

    // MARK: Registering

    /// Registers what the event changed as one undo action, when it changed anything.
    func registerUndoForEvent() {
        guard let pending = undoRecord, !pending.isEmpty, let undoManager else { return }
        undoRecord = UndoRecord()
        guard let record = pending.removingUnchanged(isInContext: isInContext) else { return }
        undoManager.registerUndo(withTarget: self) { context in
            context.performUndo(of: record)
        }
    }

    /// Restores the state `record` holds and registers the opposite change.
    ///
    /// The undo manager collects what this registers into the group it is building (the redo
    /// group while undoing, an undo group while redoing), which it closes when this returns. The
    /// restoring is an event of its own: its ObjectsDidChange notification is posted here.
    private func performUndo(of record: UndoRecord) {
        let opposite = UndoRecord()
        let pending = undoRecord
        // The setters this calls record into the opposite record, not into the user's event.
        undoRecord = opposite
        apply(record, recordingInto: opposite)
        undoRecord = pending
        undoManager?.registerUndo(withTarget: self) { context in
            context.performUndo(of: opposite)
        }
        postObjectsDidChange()
    }

    // MARK: Applying

    /// Brings back the objects the record's event removed, restores the recorded slots, then
    /// removes the objects the event brought in; `opposite` receives the state each step replaces.
    /// Each object it changes then awakes from the snapshot events that changed it.
    private func apply(_ record: UndoRecord, recordingInto opposite: UndoRecord) {
        var events = SnapshotEvents()
        for state in record.objects where state.existed == true && !isInContext(state.object) {
            opposite.captureMembership(of: state.object, existed: false)
            reinstate(state.object)
            events.record(.undoDeletion, for: state.object)
        }
        for state in record.objects where isInContext(state.object) {
            for slotState in state.slots {
                opposite.captureSlot(slotState.slot, of: state.object)
                state.object.restore(slotState)
            }
            if !state.slots.isEmpty { events.record(.undoUpdate, for: state.object) }
        }
        var forgotten = false
        for state in record.objects where state.existed == false && isInContext(state.object) {
            opposite.captureMembership(of: state.object, existed: true)
            forgotten = withdraw(state.object, recordingInto: opposite) || forgotten
            events.record(.undoInsertion, for: state.object)
        }
        if forgotten {
            changedObjects.compact { !$0.flags.contains(.invalidated) }
        }
        events.awake()
    }

    /// Whether an object is registered in this context and not deleted.
    func isInContext(_ object: NSManagedObject) -> Bool {
        object.managedObjectContext === self && object.flags.isDisjoint(with: [.deleted, .discarded, .invalidated])
    }

    /// Undoes an object's removal: a pending delete is cancelled; an object that left the context
    /// (a discarded insert, or a delete that was saved) is inserted again, without waking.
    private func reinstate(_ object: NSManagedObject) {
        if object.managedObjectContext === self, object.flags.contains(.deleted) {
            object.flags.remove([.deleted, .deletePropagated])
            objectDidChange(object)
        } else if object.managedObjectContext === self, object.flags.contains(.discarded) {
            // Deleted after its insert, in an event whose deletes have not propagated yet.
            object.flags.remove([.discarded, .deletePropagated])
            object.flags.insert([.inserted, .insertedInEvent])
            objectDidChange(object)
        } else {
            // Its row, if it had one, is gone: it is a new insert, with nothing committed.
            object.snapshot = nil
            for slot in object.layout.relationshipSlots {
                (object.values[slot] as? RelatedObjects)?.replaceCommitted(with: [])
            }
            insertImplementation(object, awakening: false)
        }
    }

    /// Undoes an object's insert: its relationships are cleared (their destinations' sides are
    /// restored by the record already), then a pending insert is discarded and a saved object is
    /// deleted. Returns whether the object left the context, so that the caller compacts the
    /// list of changed objects once.
    private func withdraw(_ object: NSManagedObject, recordingInto opposite: UndoRecord) -> Bool {
        for slot in object.layout.relationshipSlots {
            opposite.captureSlot(slot, of: object)
            object.setValue(nil, atSlot: slot)
        }
        if object.isInserted {
            object.flags.remove(.inserted)
            object.flags.insert([.discarded, .deletePropagated])
            forget(object)
            return true
        }
        // The record restores what its delete rules would change, so they must not run.
        object.flags.insert([.deleted, .deletePropagated])
        objectDidChange(object)
        return false
    }
}
