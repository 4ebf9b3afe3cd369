#if canImport(CoreData)
import CoreData

extension CoreDataPeers {
    /// W9 ours, batched: `fetchBatched(request)` with `fetchBatchSize` ``Workload/w9FetchBatchSize``
    /// (the lazy collection of compact IDs that makes one batch of objects at a time), reading
    /// `score` of every object, with `context.reset()` every ``Workload/w9ResetInterval`` objects
    /// (a multiple of the batch size, so the reset falls between batches).
    static var iterateBatched: Peer {
        iteratePeer(named: "ours-batched", batchSize: Workload.w9FetchBatchSize) { context, request in
            var sum: Int64 = 0
            for (position, item) in try context.fetchBatched(request).enumerated() {
                sum &+= try ScoredItemModel.score(of: item, peer: "ours-batched")
                if (position + 1).isMultiple(of: Workload.w9ResetInterval) {
                    context.reset()
                }
            }
            return sum
        }
    }

    /// W9 ours, Apple's API: `fetch(request)` with `fetchBatchSize` ``Workload/w9FetchBatchSize``.
    /// On Linux the result is an `Array` holding all the objects at once, as faults whose rows load
    /// one batch per query. `reset()` would invalidate the objects the array still holds (they
    /// would read nil), so every ``Workload/w9ResetInterval`` objects the ones just read are turned
    /// back into faults with `refresh(_:mergeChanges: false)`, the spec's other option.
    static var iterateFetched: Peer {
        iteratePeer(named: "ours-fetch", batchSize: Workload.w9FetchBatchSize) { context, request in
            let items = try context.fetch(request)
            var sum: Int64 = 0
            var refreshedUpTo = 0
            for (position, item) in items.enumerated() {
                sum &+= try ScoredItemModel.score(of: item, peer: "ours-fetch")
                if (position + 1).isMultiple(of: Workload.w9ResetInterval) || position + 1 == items.count {
                    for read in items[refreshedUpTo...position] {
                        context.refresh(read, mergeChanges: false)
                    }
                    refreshedUpTo = position + 1
                }
            }
            return sum
        }
    }

    /// W9 ours, fetch-all: `fetch(request)` without a batch size (every row loaded by one query),
    /// reading `score` of every object. Its peak memory per object is W9c's figure.
    static var iterateFetchAll: Peer {
        iteratePeer(named: "ours-fetch-all", batchSize: 0) { context, request in
            try context.fetch(request).reduce(0) { $0 &+ (try ScoredItemModel.score(of: $1, peer: "ours-fetch-all")) }
        }
    }

    /// A W9 peer running `iterate` inside `performAndWait` on a request for every object with
    /// `batchSize`. Set-up (not measured): the stack on the fixture copy.
    private static func iteratePeer(
        named name: String, batchSize: Int,
        iterate: @escaping (NSManagedObjectContext, NSFetchRequest<NSManagedObject>) throws -> Int64
    ) -> Peer {
        Peer(name: name, family: .ours) { input in
            let stack = try CoreDataItemStack(storeURL: input.storeURL, settings: input.settings, model: ScoredItemModel.make())
            let request = ScoredItemModel.request()
            request.fetchBatchSize = batchSize
            return PreparedRun(
                body: { try stack.context.performAndWait { try iterate(stack.context, request) } },
                tearDown: { try stack.close() })
        }
    }
}
#endif
