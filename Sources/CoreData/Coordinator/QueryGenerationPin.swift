/// The frozen data of each store of a coordinator that supports query generations, taken at one
/// moment: what an `NSQueryGenerationToken` stands for.
final class QueryGenerationPin: Sendable {
    private let generations: [(store: NSPersistentStore, generation: StoreQueryGeneration)]

    /// Freezes every store that can; call it under the stores' coordinator's lock.
    init(stores: [NSPersistentStore]) throws {
        generations = try stores.compactMap { store in
            try store.engine().openQueryGeneration().map { (store, $0) }
        }
    }

    /// Whether the frozen stores belong to `coordinator`.
    func belongs(to coordinator: NSPersistentStoreCoordinator) -> Bool {
        generations.allSatisfy { $0.store.persistentStoreCoordinator === coordinator }
    }

    /// Whether some store is frozen (stores that cannot be, such as in-memory stores, always
    /// read their current data).
    var isEffective: Bool { !generations.isEmpty }

    /// Runs `body` with every frozen store reading its frozen data; call it under the
    /// coordinator's lock.
    func read<T>(_ body: () throws -> T) throws -> T {
        try read(from: generations[...], body)
    }

    private func read<T>(from remaining: ArraySlice<(store: NSPersistentStore, generation: StoreQueryGeneration)>, _ body: () throws -> T) throws -> T {
        guard let (store, generation) = remaining.first else { return try body() }
        return try store.engine().read(at: generation) { try read(from: remaining.dropFirst(), body) }
    }
}
