extension NSPersistentStoreCoordinator {
    /// A token for the latest transaction of each store's persistent history.
    ///
    /// - Parameter stores: the stores to cover (`NSPersistentStore`s); every store when nil or
    ///   empty.
    /// - Returns: nil when none of the stores records history or has a transaction yet.
    public func currentPersistentHistoryToken(fromStores stores: [Any]?) -> NSPersistentHistoryToken? {
        let chosen = (stores?.compactMap { $0 as? NSPersistentStore }).flatMap { $0.isEmpty ? nil : $0 } ?? persistentStores
        let numbers: [String: Int64]? = try? withStores { _ in
            var numbers: [String: Int64] = [:]
            for store in chosen {
                guard let history = store as? PersistentHistoryStoring, history.tracksHistory, let identifier = store.identifier,
                      let number = try history.latestHistoryTransactionNumber() else { continue }
                numbers[identifier] = number
            }
            return numbers
        }
        guard let numbers, !numbers.isEmpty else { return nil }
        return NSPersistentHistoryToken(transactionNumbers: numbers)
    }

    /// The history stores a request covers: its affected stores, or every store; those that do not
    /// record history are left out.
    ///
    /// - Throws: `NSPersistentStoreUnsupportedRequestTypeError` (134091) when none records history.
    func historyStores(affected: [NSPersistentStore]?) throws -> [PersistentHistoryStoring] {
        let stores = (affected ?? persistentStores).compactMap { $0 as? PersistentHistoryStoring }.filter(\.tracksHistory)
        guard !stores.isEmpty else {
            throw CoreDataError.make(
                NSPersistentStoreUnsupportedRequestTypeError,
                "No store records persistent history: add a SQLite store with the option NSPersistentHistoryTrackingKey set to true."
            )
        }
        return stores
    }

    /// Forgets the cached rows of objects history says changed: another coordinator or process
    /// may have changed them since this coordinator read them.
    func forgetCachedRows(of objectIDs: [NSManagedObjectID]) {
        guard !objectIDs.isEmpty else { return }
        rowCache.remove(objectIDs.map(\.identity))
    }
}
