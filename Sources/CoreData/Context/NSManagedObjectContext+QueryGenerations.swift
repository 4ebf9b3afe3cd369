// Query generations (spec MOC-34): a pinned context reads the stores' data as it was when it was
// pinned; saves, resets and merges move it to the latest data, re-pinning at its next read.
extension NSManagedObjectContext {
    var queryGenerationTokenImplementation: NSQueryGenerationToken? {
        switch queryGeneration {
        case .unpinned: nil
        case .pendingCurrent: .current
        case .pinned(let token): token
        }
    }

    func setQueryGenerationImplementation(_ token: NSQueryGenerationToken?) throws {
        guard parent == nil else {
            throw CoreDataError.make(NSCoreDataError, "A child context cannot be pinned to a query generation; it reads through its parent, which can be.")
        }
        guard let token else {
            queryGeneration = .unpinned
            return
        }
        guard let pin = token.pin else {
            queryGeneration = .pendingCurrent
            return
        }
        guard let coordinator = persistentStoreCoordinator, pin.belongs(to: coordinator) else {
            throw CoreDataError.make(NSCoreDataError, "The query generation token belongs to the stores of another coordinator.")
        }
        queryGeneration = .pinned(token)
    }

    /// Moves a pinned context to the latest data, to be pinned again at its next read (after a
    /// save, a reset or a merge, as Apple documents).
    func advanceQueryGeneration() {
        if case .pinned = queryGeneration { queryGeneration = .pendingCurrent }
    }
}
