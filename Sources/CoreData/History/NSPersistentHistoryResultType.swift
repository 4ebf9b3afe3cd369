/// What an `NSPersistentHistoryChangeRequest` returns in its result's `result`.
public enum NSPersistentHistoryResultType: Int, Sendable {
    /// Whether the request succeeded, as a Boolean `NSNumber`.
    case statusOnly = 0
    /// The IDs of the changed objects, an `[NSManagedObjectID]`.
    case objectIDs = 1
    /// The number of transactions found or deleted, as an `NSNumber`.
    case count = 2
    /// The transactions, an `[NSPersistentHistoryTransaction]` whose `changes` are nil.
    case transactionsOnly = 3
    /// The changes, an `[NSPersistentHistoryChange]`.
    case changesOnly = 4
    /// The transactions with their changes, an `[NSPersistentHistoryTransaction]`.
    case transactionsAndChanges = 5
}
