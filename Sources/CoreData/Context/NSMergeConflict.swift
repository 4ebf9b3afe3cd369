/// An optimistic-locking conflict found at save: an object this context changed or deleted whose
/// row another context or coordinator changed or deleted since this context read it.
///
/// Snapshots are dictionaries of the object's attributes and to-one relationships (as object
/// IDs), with `NSNull` for nil; they hold no to-many relationships.
open class NSMergeConflict: NSObject {
    /// The object of this context in conflict.
    public let sourceObject: NSManagedObject

    /// The object's current values in this context.
    public let objectSnapshot: [String: Any]?

    /// The values this context last read from the store.
    public let cachedSnapshot: [String: Any]?

    /// The values the store holds now; nil when the row was deleted.
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
    ///   - cachedSnapshot: The values last read from the store.
    ///   - persistedSnapshot: The values in the store now.
    public init(source srcObject: NSManagedObject, newVersion newvers: Int, oldVersion oldvers: Int, cachedSnapshot: [String: Any]?, persistedSnapshot: [String: Any]?) {
        sourceObject = srcObject
        objectSnapshot = srcObject.conflictSnapshot(of: srcObject.isFault ? nil : srcObject.values)
        self.cachedSnapshot = cachedSnapshot
        self.persistedSnapshot = persistedSnapshot
        newVersionNumber = newvers
        oldVersionNumber = oldvers
        persistedRow = nil
        super.init()
    }

    /// A conflict between an object and the row its store holds now (nil when deleted).
    init(source object: NSManagedObject, persistedRow: RowSnapshot?) {
        sourceObject = object
        objectSnapshot = object.conflictSnapshot(of: object.isFault ? nil : object.values)
        cachedSnapshot = object.conflictSnapshot(of: object.snapshot?.values)
        persistedSnapshot = object.conflictSnapshot(of: persistedRow?.values)
        newVersionNumber = Int(persistedRow?.version ?? 0)
        oldVersionNumber = Int(object.snapshot?.version ?? 0)
        self.persistedRow = persistedRow
        super.init()
    }

    open override var description: String {
        "NSMergeConflict (\(sourceObject.objectID)) with oldVersion = \(oldVersionNumber) and newVersion = \(newVersionNumber)"
    }
}
