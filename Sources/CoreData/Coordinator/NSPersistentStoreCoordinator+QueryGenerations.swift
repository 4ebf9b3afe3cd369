// Query generations (spec MOC-34): the coordinator runs a context's reads at the generation the
// context is pinned to, pinning a context that waits for its next read, and keeps the row cache,
// which holds the latest rows, away from contexts that read frozen data.
extension NSPersistentStoreCoordinator {
    /// Runs store reads for a context (`requestingContext`) under the store lock, at the
    /// context's query generation.
    func reading<T>(for context: NSManagedObjectContext, _ body: () throws -> T) throws -> T {
        try withStores { stores in
            try answering(context) {
                try read(at: context, in: stores, body)
            }
        }
    }

    /// Runs `body` at the context's query generation, pinning a context that waits for one.
    private func read<T>(at context: NSManagedObjectContext, in stores: [NSPersistentStore], _ body: () throws -> T) throws -> T {
        switch context.queryGeneration {
        case .unpinned:
            return try body()
        case .pendingCurrent:
            let pin = try QueryGenerationPin(stores: stores)
            context.queryGeneration = .pinned(NSQueryGenerationToken(pin: pin))
            return try pin.read(body)
        case .pinned(let token):
            return try token.pin?.read(body) ?? body()
        }
    }

    /// The row cache, for a context that may use it: not while it reads frozen data.
    func rowCache(for context: NSManagedObjectContext) -> RowCache? {
        switch context.queryGeneration {
        case .unpinned: rowCache
        case .pendingCurrent: nil
        case .pinned(let token): token.pin?.isEffective ?? false ? nil : rowCache
        }
    }
}
