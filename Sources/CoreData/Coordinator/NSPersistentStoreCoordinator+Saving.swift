extension NSPersistentStoreCoordinator {
    /// Permanent IDs for new objects, reserved for good in `store`.
    func obtainPermanentIDs(for objects: [NSManagedObject], in store: NSPersistentStore) throws -> [NSManagedObjectID] {
        try withStores { _ in try store.engine().obtainPermanentIDs(for: objects) }
    }

    /// Records a committed save in the row cache: the rows it inserted and updated, and the rows
    /// it deleted.
    func didCommit(inserted: [RowSnapshot], updated: [RowSnapshot], deleting deleted: [NSManagedObjectID]) {
        rowCache.insertNewRows(inserted)
        rowCache.insert(updated)
        rowCache.remove(deleted.map(\.identity))
    }

    /// What a save came to in the stores.
    enum SaveOutcome {
        /// Committed in every store: each store's result, in the order of the shares.
        case saved([StoreSaveResult])
        /// Written in no store: a row changed since the context read it.
        case conflict(VersionConflict)
    }

    /// Writes each store's share of a save: every store writes inside an open transaction first,
    /// and only when all of them succeeded do they commit, so a conflict or a failure anywhere
    /// leaves every store as it was. (Should a commit itself fail after another store committed,
    /// the stores that have not committed yet roll back.) Stores without transactions write
    /// last, once every other store has written.
    ///
    /// The context is the one that saves (`requestingContext`), which custom stores hand to their
    /// subclasses' methods.
    func save(_ shares: [(store: NSPersistentStore, changes: StoreSaveChanges)], for context: NSManagedObjectContext) throws -> SaveOutcome {
        try withStores { _ in try answering(context) { try write(shares) } }
    }

    private func write(_ shares: [(store: NSPersistentStore, changes: StoreSaveChanges)]) throws -> SaveOutcome {
        let engines = try shares.map { try $0.store.engine() }
        let order = engines.indices.sorted { !engines[$0].writesWithoutTransaction && engines[$1].writesWithoutTransaction }
        var begun: [PersistentStoreEngine] = []
        var results = [StoreSaveResult](repeating: StoreSaveResult(), count: shares.count)
        var changedRows: [[ObjectIdentity]] = []
        do {
            for index in order {
                var changes = shares[index].changes
                changes.isWholeSave = shares.count == 1
                let engine = engines[index]
                switch try engine.beginSave(changes) {
                case .written(let result):
                    results[index] = result
                case .conflict(let conflict):
                    begun.forEach { try? $0.finishSave(committing: false) }
                    return .conflict(conflict)
                }
                begun.append(engine)
                changedRows.append((changes.updates + changes.deletes).map(\.objectID.identity))
            }
        } catch {
            begun.forEach { try? $0.finishSave(committing: false) }
            throw error
        }
        for (index, engine) in begun.enumerated() {
            do {
                try engine.finishSave(committing: true)
            } catch {
                begun[(index + 1)...].forEach { try? $0.finishSave(committing: false) }
                throw error
            }
            results[order[index]].generation = engine.rowChanges.record(changedRows[index])
            if !changedRows[index].isEmpty { hasChangedRows.store(true, ordering: .releasing) }
        }
        return .saved(results)
    }
}
