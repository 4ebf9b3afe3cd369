/// The kinds of change persistent history records.
public enum NSPersistentHistoryChangeType: Int, Sendable {
    /// The object was inserted.
    case insert = 0
    /// Some of the object's attributes or relationships changed.
    case update = 1
    /// The object was deleted.
    case delete = 2
}
