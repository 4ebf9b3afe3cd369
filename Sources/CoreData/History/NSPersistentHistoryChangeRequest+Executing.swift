import Foundation

// Running a history request: each store that records history reads (or deletes) its
// transactions; a fetch request's predicate then filters the transactions or changes read, and
// the result takes the shape the result type asks for.
extension NSPersistentHistoryChangeRequest: CoordinatorExecutedRequest {
    func execute(in coordinator: NSPersistentStoreCoordinator, for context: NSManagedObjectContext) throws -> NSPersistentStoreResult {
        try coordinator.withStores { _ in
            let stores = try coordinator.historyStores(affected: affectedStores)
            switch operation {
            case .fetch(let point):
                let transactions = try fetchTransactions(after: point, in: stores)
                coordinator.forgetCachedRows(of: transactions.flatMap { $0.changes ?? [] }.map(\.changedObjectID))
                return NSPersistentHistoryResult(result(of: transactions), resultType: resultType)
            case .delete(let point):
                let deleted = try stores.reduce(0) { count, store in
                    switch storePoint(point, in: store) {
                    case .notNamed: count
                    case .everything: count + (try store.deleteHistory(before: nil))
                    case .bound(let bound): count + (try store.deleteHistory(before: bound))
                    }
                }
                return NSPersistentHistoryResult(resultType == .count ? NSNumber(value: deleted) : NSNumber(value: true), resultType: resultType)
            }
        }
    }

    /// What a point of history a request names is in one store.
    private enum StorePoint {
        /// No point: all of the store's history.
        case everything
        case bound(HistoryBound)
        /// A token of other stores, which says nothing of this one.
        case notNamed
    }

    private func storePoint(_ point: HistoryPoint, in store: PersistentHistoryStoring) -> StorePoint {
        switch point {
        case .unbounded: .everything
        case .date(let date): .bound(.date(date))
        case .token(let token): store.identifier.flatMap { token.transactionNumbers[$0] }.map { .bound(.transaction($0)) } ?? .notNamed
        }
    }

    /// The transactions of the stores after a point that the fetch request matches, with only
    /// the changes it matches when it asks for changes; oldest first, up to its fetch limit.
    private func fetchTransactions(after point: HistoryPoint, in stores: [PersistentHistoryStoring]) throws -> [NSPersistentHistoryTransaction] {
        let filter = try HistoryFilter(fetchRequest)
        var transactions: [NSPersistentHistoryTransaction] = []
        for store in stores {
            let start: HistoryBound? = switch storePoint(point, in: store) {
            case .bound(let bound): bound
            // All of a store's history follows a token of other stores.
            case .everything, .notNamed: nil
            }
            let records = try store.historyTransactions(after: start, includingChanges: filter.readsChanges || resultType.needsChanges)
            let storeID = store.identifier ?? ""
            transactions += try filter.apply(to: records, store: storeID).map { record in
                var shown = record
                // Changes read for a predicate only are not part of the result.
                if !resultType.needsChanges { shown.changes = nil }
                return NSPersistentHistoryTransaction(shown, store: storeID)
            }
        }
        if stores.count > 1 {
            transactions.sort { $0.timestamp < $1.timestamp }
        }
        return filter.limit > 0 ? Array(transactions.prefix(filter.limit)) : transactions
    }

    /// The request's result, in the shape of its result type.
    private func result(of transactions: [NSPersistentHistoryTransaction]) -> Any {
        switch resultType {
        case .statusOnly: NSNumber(value: true)
        case .count: NSNumber(value: transactions.count)
        case .objectIDs: transactions.flatMap { $0.changes ?? [] }.map(\.changedObjectID)
        case .transactionsOnly, .transactionsAndChanges: transactions
        case .changesOnly: transactions.flatMap { $0.changes ?? [] }
        }
    }
}

extension NSPersistentHistoryResultType {
    /// Whether results of this type are made from the transactions' changes.
    var needsChanges: Bool {
        self == .changesOnly || self == .transactionsAndChanges || self == .objectIDs
    }
}

/// What the fetch request of a history request keeps: transactions, or changes, its predicate
/// matches, up to its fetch limit.
private struct HistoryFilter {
    private let predicate: NSPredicate?
    /// Whether the predicate is about changes (the fetch request names the change entity).
    let readsChanges: Bool
    let limit: Int

    init(_ fetchRequest: NSFetchRequest<NSFetchRequestResult>?) throws {
        predicate = fetchRequest?.predicate
        limit = fetchRequest?.fetchLimit ?? 0
        switch fetchRequest?.entityName ?? fetchRequest?.entity?.name {
        case nil, PersistentHistoryEntities.transactionName?:
            readsChanges = false
        case PersistentHistoryEntities.changeName?:
            readsChanges = true
        case let name?:
            throw CoreDataError.invalidRequest("A persistent history request's fetch request must be NSPersistentHistoryTransaction.fetchRequest or NSPersistentHistoryChange.fetchRequest, not a fetch request of \(name).")
        }
    }

    /// The records the predicate keeps: whole transactions, or transactions with only the changes
    /// it matches (and without those left with none).
    func apply(to records: [HistoryTransactionRecord], store: String) throws -> [HistoryTransactionRecord] {
        guard let predicate else { return records }
        return try records.compactMap { record in
            guard readsChanges else {
                return try matches(NSPersistentHistoryTransaction(record, store: store), predicate) ? record : nil
            }
            let changes = NSPersistentHistoryTransaction(record, store: store).changes ?? []
            var kept = record
            kept.changes = try zip(record.changes ?? [], changes).filter { try matches($1, predicate) }.map(\.0)
            return kept.changes?.isEmpty == false ? kept : nil
        }
    }

    /// Whether the predicate matches; a predicate that cannot be evaluated (an unknown key) is an
    /// `NSError`, as it is for fetches.
    private func matches(_ object: AnyObject, _ predicate: NSPredicate) throws -> Bool {
        do {
            return try predicate.evaluate(with: object, variables: [:])
        } catch let error as PredicateEvaluationError {
            throw error as NSError
        }
    }
}
