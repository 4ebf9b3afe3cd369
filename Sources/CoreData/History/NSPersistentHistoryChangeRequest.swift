import Foundation

/// A request that reads, or deletes, the persistent history of the stores opened with
/// `NSPersistentHistoryTrackingKey`.
///
/// Make one with a class method: `fetchHistory(after:)` reads the transactions after a date, a
/// token or a transaction; `fetchHistory(withFetch:)` reads the transactions, or changes, that a
/// fetch request of `NSPersistentHistoryTransaction.fetchRequest` or
/// `NSPersistentHistoryChange.fetchRequest` matches; `deleteHistory(before:)` deletes the
/// transactions before a date, a token or a transaction. Run it with a context's
/// `execute(_:)`, which returns an `NSPersistentHistoryResult`.
open class NSPersistentHistoryChangeRequest: NSPersistentStoreRequest {
    /// What the request does, and from where.
    enum Operation {
        case fetch(after: HistoryPoint)
        case delete(before: HistoryPoint)
    }

    /// A point of history a request names.
    enum HistoryPoint {
        case unbounded
        case date(Date)
        case token(NSPersistentHistoryToken)
    }

    var operation = Operation.fetch(after: .unbounded)

    /// What the request's result holds; transactions with their changes unless set.
    open var resultType: NSPersistentHistoryResultType = .transactionsAndChanges

    /// A fetch request of transactions or changes whose predicate filters what the request
    /// reads, beside its date or token.
    open var fetchRequest: NSFetchRequest<NSFetchRequestResult>?

    /// The token the request reads after, or deletes before.
    open var token: NSPersistentHistoryToken? {
        switch operation {
        case .fetch(after: .token(let token)), .delete(before: .token(let token)): token
        default: nil
        }
    }

    public required override init() {
        super.init()
    }

    /// A request for the transactions committed after a date.
    open class func fetchHistory(after date: Date) -> Self {
        request(.fetch(after: .date(date)))
    }

    /// A request for the transactions after the one a token stands for; every transaction for a
    /// nil token.
    open class func fetchHistory(after token: NSPersistentHistoryToken?) -> Self {
        request(.fetch(after: token.map(HistoryPoint.token) ?? .unbounded))
    }

    /// A request for the transactions after a transaction; every transaction for nil.
    open class func fetchHistory(after transaction: NSPersistentHistoryTransaction?) -> Self {
        fetchHistory(after: transaction?.token)
    }

    /// A request for the transactions, or the changes, a fetch request matches.
    open class func fetchHistory(withFetch fetchRequest: NSFetchRequest<NSFetchRequestResult>) -> Self {
        let request = request(.fetch(after: .unbounded))
        request.fetchRequest = fetchRequest
        return request
    }

    /// A request that deletes the transactions committed before a date.
    open class func deleteHistory(before date: Date) -> Self {
        request(.delete(before: .date(date)))
    }

    /// A request that deletes the transactions up to and including the one a token stands for;
    /// every transaction for a nil token.
    open class func deleteHistory(before token: NSPersistentHistoryToken?) -> Self {
        request(.delete(before: token.map(HistoryPoint.token) ?? .unbounded))
    }

    /// A request that deletes the transactions up to and including a transaction; every
    /// transaction for nil.
    open class func deleteHistory(before transaction: NSPersistentHistoryTransaction?) -> Self {
        deleteHistory(before: transaction?.token)
    }

    private class func request(_ operation: Operation) -> Self {
        let request = Self()
        request.operation = operation
        return request
    }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = Self()
        copy.affectedStores = affectedStores
        copy.operation = operation
        copy.resultType = resultType
        copy.fetchRequest = fetchRequest
        return copy
    }
}
