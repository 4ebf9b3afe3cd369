/// The change-tracking and faulting state of a managed object.
struct ObjectFlags: OptionSet {
    let rawValue: UInt16

    /// Inserted into its context and not saved yet.
    static let inserted = ObjectFlags(rawValue: 1 << 0)
    /// Deleted in its context and not saved yet.
    static let deleted = ObjectFlags(rawValue: 1 << 1)
    /// Changed since it was last fetched or saved.
    static let updated = ObjectFlags(rawValue: 1 << 2)
    /// A fault: its values are not loaded.
    static let fault = ObjectFlags(rawValue: 1 << 3)
    /// Its delete has been propagated through its relationships.
    static let deletePropagated = ObjectFlags(rawValue: 1 << 4)
    /// It no longer belongs to a context (after reset, or after its deletion was saved).
    static let invalidated = ObjectFlags(rawValue: 1 << 5)
    /// It is in its context's list of objects with changes.
    static let trackedAsChanged = ObjectFlags(rawValue: 1 << 6)
    /// It is in its context's list of objects changed during the current event.
    static let trackedForEvent = ObjectFlags(rawValue: 1 << 7)
    /// It was inserted during the current event.
    static let insertedInEvent = ObjectFlags(rawValue: 1 << 8)
    /// It was inserted and then deleted before any save: it leaves its context entirely.
    static let discarded = ObjectFlags(rawValue: 1 << 9)
    /// Its row was gone when its fault fired: it is deleted and exempt from validation.
    static let inaccessible = ObjectFlags(rawValue: 1 << 10)
    /// Its `willSave()` has run during the save in progress.
    static let willSaveCalled = ObjectFlags(rawValue: 1 << 11)

    /// The flags that record membership in the context's lists, which outlive the object's state.
    static let listMarkers: ObjectFlags = [.trackedAsChanged, .trackedForEvent]
}
