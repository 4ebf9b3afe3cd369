import Foundation

/// One transaction of a store's persistent history: a save of a context, or a batch request,
/// with the changes it made.
///
/// Read transactions with an `NSPersistentHistoryChangeRequest`. To bring a context up to date
/// with a transaction another context, coordinator or process made, pass its
/// `objectIDNotification()` to the context's `mergeChanges(fromContextDidSave:)`.
// Immutable once read.
open class NSPersistentHistoryTransaction: NSObject, @unchecked Sendable {
    private let record: HistoryTransactionRecord
    private let store: String

    /// A transaction of the store with UUID `store`, whose changes are made from the record's.
    init(_ record: HistoryTransactionRecord, store: String) {
        self.record = record
        self.store = store
        super.init()
    }

    /// When the transaction was committed.
    open var timestamp: Date { record.timestamp }

    /// The transaction's changes; nil when the request asked for transactions only.
    open var changes: [NSPersistentHistoryChange]? {
        // Made on each access: the changes refer to their transaction, which keeps none of them.
        record.changes?.map { NSPersistentHistoryChange($0, transaction: self) }
    }

    /// The transaction's number, which grows with each transaction of its store.
    open var transactionNumber: Int64 { record.number }

    /// The UUID of the transaction's store.
    open var storeID: String { store }

    /// The bundle identifier of the program that made the transaction (its process name on Linux,
    /// where programs have no bundle identifier).
    open var bundleID: String { record.bundleID ?? "" }

    /// The process identifier of the program that made the transaction.
    open var processID: String { record.processID ?? "" }

    /// The `name` of the context that saved.
    open var contextName: String? { record.contextName }

    /// The `transactionAuthor` of the context that saved.
    open var author: String? { record.author }

    /// The token of the history up to and including this transaction.
    open var token: NSPersistentHistoryToken {
        NSPersistentHistoryToken(transactionNumbers: [store: record.number])
    }

    /// A notification for `NSManagedObjectContext.mergeChanges(fromContextDidSave:)`: an
    /// `NSManagedObjectContextDidSaveObjectIDs` notification, as Apple documents, holding the IDs
    /// of the objects the transaction inserted, updated and deleted.
    open func objectIDNotification() -> Notification {
        var inserted = Set<NSManagedObjectID>(), updated = Set<NSManagedObjectID>(), deleted = Set<NSManagedObjectID>()
        for change in changes ?? [] {
            switch change.changeType {
            case .insert: inserted.insert(change.changedObjectID)
            case .update: updated.insert(change.changedObjectID)
            case .delete: deleted.insert(change.changedObjectID)
            }
        }
        return Notification(name: NSManagedObjectContext.didSaveObjectIDsNotification, object: nil, userInfo: [
            NSInsertedObjectIDsKey: inserted,
            NSUpdatedObjectIDsKey: updated,
            NSDeletedObjectIDsKey: deleted,
        ])
    }

    /// The entity of transactions, for a fetch request that filters them.
    open class var entityDescription: NSEntityDescription? {
        PersistentHistoryEntities.transaction()
    }

    /// The entity of transactions, for a fetch request that filters them.
    open class func entityDescription(with context: NSManagedObjectContext) -> NSEntityDescription? {
        entityDescription
    }

    /// A fetch request for transactions, to give a predicate to and set as an
    /// `NSPersistentHistoryChangeRequest`'s `fetchRequest`.
    open class var fetchRequest: NSFetchRequest<NSFetchRequestResult>? {
        PersistentHistoryEntities.fetchRequest(for: entityDescription)
    }

    open override var description: String {
        "<NSPersistentHistoryTransaction: \(record.number) at \(record.timestamp), author \(record.author ?? "nil"), \(record.changes?.count ?? 0) changes>"
    }
}

extension NSPersistentHistoryTransaction: KeyValueCodingReadable {
    func keyValue(forKey key: String) throws -> Any? {
        switch key {
        case "timestamp": timestamp
        case "transactionNumber": NSNumber(value: transactionNumber)
        case "storeID": storeID
        case "bundleID": bundleID
        case "processID": processID
        case "contextName": contextName
        case "author": author
        case "token": token
        case "changes": changes
        default: throw PredicateEvaluationError.unknownKey(key, typeName: "NSPersistentHistoryTransaction")
        }
    }
}
