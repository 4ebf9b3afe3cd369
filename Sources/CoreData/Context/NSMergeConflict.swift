/// An optimistic-locking conflict found at save: an object this context changed or deleted whose
/// row another context or coordinator changed or deleted since this context read it.
///
/// As in Apple's Core Data, a conflict is either between the context and the coordinator's cached
/// row (another context of the same coordinator saved the row: `cachedSnapshot` holds its values
/// and `persistedSnapshot` is nil), or between the coordinator's cache and the store (another
/// coordinator or process saved it: `persistedSnapshot` holds the stored values).
///
/// Snapshots are dictionaries of the object's attributes and to-one relationships (as object
/// IDs), with `NSNull` for nil; they hold no to-many relationships.
open class NSMergeConflict: NSObject {
    /// The object of this context in conflict.
    public let sourceObject: NSManagedObject

    /// The values of the object as this context last read them from its coordinator.
    public let objectSnapshot: [String: Any]?

    /// The values of the object held by the persistent store coordinator: the newer values for a
    /// conflict with the coordinator's cache; nil when the row was deleted.
    public let cachedSnapshot: [String: Any]?

    /// The values of the object held in the persistent store, for a conflict between the
    /// coordinator and the store; nil for a conflict with the coordinator's cache, and when the
    /// row was deleted.
    public let persistedSnapshot: [String: Any]?

    /// The row's version in the store now; 0 when it was deleted.
    public let newVersionNumber: Int

    /// The row's version when this context read it.
    public let oldVersionNumber: Int

    /// The store's row now, for the built-in policies; nil when it was deleted.
    let persistedRow: RowSnapshot?

    /// Creates a conflict record.
    ///
    /// - Parameters:
    ///   - srcObject: The object in conflict.
    ///   - newvers: The row's version in the store now (0 when it was deleted).
    ///   - oldvers: The row's version when the object was read.
    ///   - cachedSnapshot: The values held by the persistent store coordinator.
    ///   - persistedSnapshot: The values held in the persistent store.
    public init(source srcObject: NSManagedObject, newVersion newvers: Int, oldVersion oldvers: Int, cachedSnapshot: [String: Any]?, persistedSnapshot: [String: Any]?) {
        sourceObject = srcObject
        objectSnapshot = srcObject.conflictSnapshot(of: srcObject.snapshot?.values)
        self.cachedSnapshot = cachedSnapshot
        self.persistedSnapshot = persistedSnapshot
        newVersionNumber = newvers
        oldVersionNumber = oldvers
        persistedRow = nil
        super.init()
    }

    /// A conflict between an object and the newest row of its store (nil when it was deleted).
    ///
    /// When the coordinator's cache already holds that row, another context of the coordinator
    /// saved it and the conflict is with the cache; otherwise it is with the store.
    init(source object: NSManagedObject, cachedRow: RowSnapshot?, persistedRow: RowSnapshot?) {
        sourceObject = object
        objectSnapshot = object.conflictSnapshot(of: object.snapshot?.values)
        if let persistedRow, cachedRow?.version == persistedRow.version {
            cachedSnapshot = object.conflictSnapshot(of: persistedRow.values)
            persistedSnapshot = nil
        } else {
            cachedSnapshot = persistedRow == nil ? nil : object.conflictSnapshot(of: (cachedRow ?? object.snapshot)?.values)
            persistedSnapshot = object.conflictSnapshot(of: persistedRow?.values)
        }
        newVersionNumber = Int(persistedRow?.version ?? 0)
        oldVersionNumber = Int(object.snapshot?.version ?? 0)
        self.persistedRow = persistedRow
        super.init()
    }

    open override var description: String {
        "NSMergeConflict (\(sourceObject.objectID)) with oldVersion = \(oldVersionNumber) and newVersion = \(newVersionNumber)"
    }
}
