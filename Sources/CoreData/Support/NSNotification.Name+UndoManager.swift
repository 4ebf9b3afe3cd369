import Foundation

// The notifications an undo manager posts, with Apple's names.
extension NSNotification.Name {
    /// Posted whenever an undo manager opens or closes an undo group (except when it opens a
    /// top-level group) and when it checks the redo stack.
    ///
    /// The object is the undo manager. Observers register their pending undo operations so that
    /// they land in the group in effect.
    public static let NSUndoManagerCheckpoint = NSNotification.Name("NSUndoManagerCheckpointNotification")

    /// Posted just before an undo manager performs an undo operation. The object is the undo
    /// manager.
    public static let NSUndoManagerWillUndoChange = NSNotification.Name("NSUndoManagerWillUndoChangeNotification")

    /// Posted just after an undo manager performs an undo operation. The object is the undo
    /// manager; the user info holds ``NSUndoManagerGroupIsDiscardableKey`` when the undone group
    /// is discardable.
    public static let NSUndoManagerDidUndoChange = NSNotification.Name("NSUndoManagerDidUndoChangeNotification")

    /// Posted just before an undo manager performs a redo operation. The object is the undo
    /// manager.
    public static let NSUndoManagerWillRedoChange = NSNotification.Name("NSUndoManagerWillRedoChangeNotification")

    /// Posted just after an undo manager performs a redo operation. The object is the undo
    /// manager; the user info holds ``NSUndoManagerGroupIsDiscardableKey`` when the redone group
    /// is discardable.
    public static let NSUndoManagerDidRedoChange = NSNotification.Name("NSUndoManagerDidRedoChangeNotification")

    /// Posted whenever an undo manager opens an undo group. The object is the undo manager.
    public static let NSUndoManagerDidOpenUndoGroup = NSNotification.Name("NSUndoManagerDidOpenUndoGroupNotification")

    /// Posted before an undo manager closes an undo group. The object is the undo manager; the
    /// user info holds ``NSUndoManagerGroupIsDiscardableKey`` when the group is discardable.
    public static let NSUndoManagerWillCloseUndoGroup = NSNotification.Name("NSUndoManagerWillCloseUndoGroupNotification")

    /// Posted after an undo manager closes an undo group. The object is the undo manager; the
    /// user info holds ``NSUndoManagerGroupIsDiscardableKey`` when the group is discardable.
    public static let NSUndoManagerDidCloseUndoGroup = NSNotification.Name("NSUndoManagerDidCloseUndoGroupNotification")
}

/// A user-info key whose value, `true` as an `NSNumber`, says that the undo group as a whole is
/// discardable.
public let NSUndoManagerGroupIsDiscardableKey = "NSUndoManagerGroupIsDiscardableKey"
