import Foundation

/// One transaction of a store's persistent history, as the store reads it.
package struct HistoryTransactionRecord {
    /// The transaction's number, unique in its store and growing with time.
    let number: Int64
    let timestamp: Date
    let author: String?
    let bundleID: String?
    let contextName: String?
    let processID: String?
    /// The transaction's changes, when they were asked for, in the order they were recorded.
    var changes: [HistoryChangeRecord]?
}

/// One change of a store's persistent history, as the store reads it.
package struct HistoryChangeRecord {
    /// The change's number, unique in its store.
    let number: Int64
    let transactionNumber: Int64
    /// 0 insert, 1 update, 2 delete (`NSPersistentHistoryChangeType`'s raw values).
    let kind: Int
    let objectID: NSManagedObjectID
    /// The attributes and relationships an update changed.
    let updatedProperties: [NSPropertyDescription]?
    /// The preserved values of a deleted object, by attribute name.
    let tombstone: [String: Any]?
}

/// Where a history request starts or stops.
package enum HistoryBound {
    /// After (for fetches) or before (for deletes) the transaction with this number.
    case transaction(Int64)
    /// After or before this moment.
    case date(Date)
}

/// A store that records persistent history (a SQLite store opened with
/// `NSPersistentHistoryTrackingKey`) and answers history requests.
package protocol PersistentHistoryStoring: PersistentStoreEngine {
    /// Whether the store records history.
    var tracksHistory: Bool { get }

    /// The number of the store's latest transaction; nil before the first one.
    func latestHistoryTransactionNumber() throws -> Int64?

    /// The transactions after a bound (all of them without one), oldest first, with their
    /// changes when `includingChanges`.
    ///
    /// - Throws: `NSPersistentHistoryTokenExpiredError` (134301) when transactions after a
    ///   transaction bound have been deleted.
    func historyTransactions(after bound: HistoryBound?, includingChanges: Bool) throws -> [HistoryTransactionRecord]

    /// Deletes the transactions before a bound (all of them without one) and returns how many
    /// there were.
    func deleteHistory(before bound: HistoryBound?) throws -> Int
}
