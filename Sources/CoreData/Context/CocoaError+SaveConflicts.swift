extension CocoaError {
    /// The optimistic-locking conflicts of a save that failed under the error merge policy
    /// (`NSPersistentStoreSaveConflictsErrorKey`); nil for other conflicts.
    public var persistentStoreSaveConflicts: [NSMergeConflict]? {
        userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict]
    }
}
