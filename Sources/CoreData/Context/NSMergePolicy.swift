/// A policy that resolves the conflicts a save finds between this context's changes and changes
/// saved elsewhere since the context read its objects (optimistic locking).
///
/// Set it as a context's `mergePolicy`. Subclasses can override the `resolve` methods; the built-in
/// policies resolve each conflict as their type says:
/// - `.error`: the save fails with `NSManagedObjectMergeError` (133020), listing the conflicts
///   under `conflictList`.
/// - `.mergeByPropertyStoreTrump`: per property, the store's value wins where both changed.
/// - `.mergeByPropertyObjectTrump`: per property, the in-memory value wins where both changed.
/// - `.overwrite`: the object's in-memory state is written over the store's, whole.
/// - `.rollback`: the object's in-memory changes (a delete included) give way to the store's state.
///
/// An object whose row was deleted elsewhere is discarded under every policy but `.error`: its
/// row cannot be updated any more.
// Immutable: the merge type is set once, and resolution works on the objects it is given.
open class NSMergePolicy: NSObject, @unchecked Sendable {
    /// The kind of policy.
    public let mergeType: NSMergePolicyType

    /// Creates a policy of a type.
    ///
    /// - Parameter ty: The kind of policy.
    public init(merge ty: NSMergePolicyType) {
        mergeType = ty
        super.init()
    }

    /// The policy that makes saves with conflicts fail.
    open class var error: NSMergePolicy { NSMergePolicy(merge: .errorMergePolicyType) }

    /// The policy under which, per property, the store's value wins.
    open class var mergeByPropertyStoreTrump: NSMergePolicy { NSMergePolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType) }

    /// The policy under which, per property, the in-memory value wins.
    open class var mergeByPropertyObjectTrump: NSMergePolicy { NSMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType) }

    /// The policy that writes the in-memory state over the store's.
    open class var overwrite: NSMergePolicy { NSMergePolicy(merge: .overwriteMergePolicyType) }

    /// The policy that discards the in-memory changes of conflicting objects.
    open class var rollback: NSMergePolicy { NSMergePolicy(merge: .rollbackMergePolicyType) }

    /// Resolves the conflicts of a save: first the optimistic-locking conflicts
    /// (`NSMergeConflict`), then the uniqueness-constraint conflicts (`NSConstraintConflict`).
    ///
    /// - Parameter list: The conflicts.
    /// - Throws: An `NSManagedObjectMergeError` under the error policy.
    open func resolve(mergeConflicts list: [Any]) throws {
        try resolve(optimisticLockingConflicts: list.compactMap { $0 as? NSMergeConflict })
        try resolve(constraintConflicts: list.compactMap { $0 as? NSConstraintConflict })
    }

    /// Resolves uniqueness-constraint conflicts as the policy's type says: one object is kept
    /// (the stored row's, or else the first inserted), the relationships of the others move to it
    /// and they are deleted, so that the save updates instead of adding a duplicate. Under the
    /// object-trump and overwrite policies the kept object takes the values of the last
    /// conflicting object. Objects that were updated rather than inserted cannot be merged: their
    /// conflict fails the save under every policy.
    ///
    /// - Parameter list: The conflicts.
    /// - Throws: An `NSManagedObjectConstraintMergeError` (133021) listing the conflicts under the
    ///   error policy, or for a conflict of updated objects.
    open func resolve(constraintConflicts list: [NSConstraintConflict]) throws {
        guard !list.isEmpty else { return }
        guard mergeType != .errorMergePolicyType else {
            throw CoreDataError.make(
                NSManagedObjectConstraintMergeError,
                "Could not save: \(list.count) uniqueness constraint conflict\(list.count == 1 ? "" : "s"), such as \(list[0]).",
                userInfo: [NSPersistentStoreSaveConflictsErrorKey: list, NSAffectedObjectsErrorKey: list.flatMap(\.conflictingObjects)]
            )
        }
        for conflict in list {
            try conflict.conflictingObjects.lazy.compactMap(\.managedObjectContext).first?.resolve(conflict, as: mergeType)
        }
    }

    /// Resolves optimistic-locking conflicts as the policy's type says.
    ///
    /// - Parameter list: The conflicts.
    /// - Throws: An `NSManagedObjectMergeError` (133020) listing the conflicts under the error policy.
    open func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
        guard !list.isEmpty else { return }
        guard mergeType != .errorMergePolicyType else {
            throw CoreDataError.make(
                NSManagedObjectMergeError,
                "Could not merge changes: \(list.count) object\(list.count == 1 ? " was" : "s were") changed or deleted in the store since this context read \(list.count == 1 ? "it" : "them").",
                userInfo: [NSPersistentStoreSaveConflictsErrorKey: list, NSAffectedObjectsErrorKey: list.map(\.sourceObject)]
            )
        }
        for conflict in list {
            try conflict.sourceObject.managedObjectContext?.resolve(conflict, as: mergeType)
        }
    }
}

// The constants are immutable NSMergePolicy objects, which the type `Any` of Apple's API hides.

/// The default merge policy: a save with conflicts fails.
public nonisolated(unsafe) let NSErrorMergePolicy: Any = NSMergePolicy(merge: .errorMergePolicyType)
/// Per property, the store's value wins where both sides changed.
public nonisolated(unsafe) let NSMergeByPropertyStoreTrumpMergePolicy: Any = NSMergePolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType)
/// Per property, the in-memory value wins where both sides changed.
public nonisolated(unsafe) let NSMergeByPropertyObjectTrumpMergePolicy: Any = NSMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
/// The in-memory state of each conflicting object is written over the store, whole.
public nonisolated(unsafe) let NSOverwriteMergePolicy: Any = NSMergePolicy(merge: .overwriteMergePolicyType)
/// The in-memory changes of each conflicting object are discarded for the store's state.
public nonisolated(unsafe) let NSRollbackMergePolicy: Any = NSMergePolicy(merge: .rollbackMergePolicyType)
