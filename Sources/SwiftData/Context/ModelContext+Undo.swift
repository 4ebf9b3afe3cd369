public import CoreData

extension ModelContext {
    /// The undo manager that records the context's changes; none by default.
    ///
    /// With one, `undo()` takes back the changes since the last undo group ended, as Core Data's
    /// contexts do.
    public var undoManager: UndoManager? {
        get { managedContext.undoManager }
        set { managedContext.undoManager = newValue }
    }
}
