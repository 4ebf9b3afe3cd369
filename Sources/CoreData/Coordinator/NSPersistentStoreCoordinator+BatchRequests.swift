// Batch requests: resolved against the model, then run by each store that holds the entity as
// one transaction of SQL, without objects. Only stores that run them (the SQLite store) accept
// them. Contexts learn of the changes only when the program merges the result's IDs.
extension NSPersistentStoreCoordinator {
    /// The result of a batch request; nil for a request of another kind.
    func executeBatchRequest(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext) throws -> NSPersistentStoreResult? {
        let model = managedObjectModel
        switch request {
        case let insertRequest as NSBatchInsertRequest:
            let insert = try BatchInsert(insertRequest, model: model)
            let stores = store(forInserting: insert.entity).map { [$0] } ?? []
            let changes = try runBatch(in: insertRequest.affectedStores ?? stores, of: request, for: context) { try $0.executeBatchInsert(insert) }
            return NSBatchInsertResult(Self.batchResult(changes, resultType: insertRequest.resultType.rawValue), resultType: insertRequest.resultType)
        case let updateRequest as NSBatchUpdateRequest:
            let update = try BatchUpdate(updateRequest, context: context, model: model)
            let stores = self.stores(holding: update.plan.entities, affected: request.affectedStores)
            let changes = try runBatch(in: stores, of: request, for: context) { try $0.executeBatchUpdate(update) }
            return NSBatchUpdateResult(Self.batchResult(changes, resultType: updateRequest.resultType.rawValue), resultType: updateRequest.resultType)
        case let deleteRequest as NSBatchDeleteRequest:
            let deletion = try BatchDelete(deleteRequest, context: context, model: model)
            let stores = self.stores(holding: deletion.plan.entities, affected: deleteRequest.fetchRequest.affectedStores ?? request.affectedStores)
            let changes = try runBatch(in: stores, of: request, for: context) { try $0.executeBatchDelete(deletion) }
            return NSBatchDeleteResult(Self.batchResult(changes, resultType: deleteRequest.resultType.rawValue), resultType: deleteRequest.resultType)
        default:
            return nil
        }
    }

    /// Runs a batch request in each store under the coordinator's lock, once every store has
    /// been found able to; forgets the cached rows it changed (all of a store's, when the store
    /// did not list them). Returns the objects the result names and their number. The stores
    /// record the context's author and name with the request's history.
    private func runBatch(in stores: [NSPersistentStore], of request: NSPersistentStoreRequest, for context: NSManagedObjectContext,
                          _ body: (BatchRequestExecuting) throws -> BatchOutcome) throws -> (objectIDs: [NSManagedObjectID], count: Int) {
        try withStores { _ in try answering(context) { try runBatchLocked(in: stores, of: request, body) } }
    }

    private func runBatchLocked(in stores: [NSPersistentStore], of request: NSPersistentStoreRequest,
                                _ body: (BatchRequestExecuting) throws -> BatchOutcome) throws -> (objectIDs: [NSManagedObjectID], count: Int) {
        let executors = try stores.map { store in
            guard let executor = store as? BatchRequestExecuting else {
                throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "The store of type '\(store.type)' cannot execute a \(type(of: request)); batch requests need a relational store (SQLite or PostgreSQL).")
            }
            guard !store.isReadOnly else {
                throw CoreDataError.make(NSPersistentStoreSaveError, "The store at \(store.url?.path ?? "?") is read-only: it cannot execute a \(type(of: request)).")
            }
            return executor
        }
        var identifiers: [NSManagedObjectID] = []
        var count = 0
        for executor in executors {
            let outcome = try executor.rerunningTransientFailures { try body(executor) }
            identifiers += outcome.objectIDs
            count += outcome.unlistedCount ?? outcome.objectIDs.count
            if let unlisted = outcome.unlistedCount, unlisted > 0 {
                rowCache.removeRows(ofStore: executor.identityNumber)
                executor.rowChanges.recordUnlistedChanges()
                hasChangedRows.store(true, ordering: .releasing)
            }
            let changed = outcome.changedRows.map(\.identity)
            rowCache.remove(changed)
            executor.rowChanges.record(changed)
            if !changed.isEmpty { hasChangedRows.store(true, ordering: .releasing) }
        }
        return (identifiers, count)
    }

    /// A batch result's value for a result type's raw value, which the three result types share:
    /// 0 a status, 1 the object IDs, 2 their number.
    private static func batchResult(_ changes: (objectIDs: [NSManagedObjectID], count: Int), resultType: UInt) -> Any {
        switch resultType {
        case 1: return changes.objectIDs
        case 2: return NSNumber(value: changes.count)
        default: return NSNumber(value: true)
        }
    }
}
