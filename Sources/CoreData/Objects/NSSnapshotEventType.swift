/// Constants that specify the reason the managed object may need to reinitialize its values.
///
/// Core Data passes a combination of these to `NSManagedObject.awake(fromSnapshotEvents:)` when
/// it gives an object's properties values from a snapshot other than a fault's first fetch.
public struct NSSnapshotEventType: OptionSet, Hashable, Sendable {
    public let rawValue: UInt

    /// Creates a set of snapshot events from its raw value.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Specifies a change due to undo from insertion.
    public static var undoInsertion: NSSnapshotEventType { NSSnapshotEventType(rawValue: 1 << 1) }

    /// Specifies a change due to undo from deletion.
    public static var undoDeletion: NSSnapshotEventType { NSSnapshotEventType(rawValue: 1 << 2) }

    /// Specifies a change due to a property-level undo.
    public static var undoUpdate: NSSnapshotEventType { NSSnapshotEventType(rawValue: 1 << 3) }

    /// Specifies a change due to the managed object context being rolled back.
    public static var rollback: NSSnapshotEventType { NSSnapshotEventType(rawValue: 1 << 4) }

    /// Specifies a change due to the managed object being refreshed.
    public static var refresh: NSSnapshotEventType { NSSnapshotEventType(rawValue: 1 << 5) }

    /// Specifies a change due to conflict resolution during a save operation.
    public static var mergePolicy: NSSnapshotEventType { NSSnapshotEventType(rawValue: 1 << 6) }
}
