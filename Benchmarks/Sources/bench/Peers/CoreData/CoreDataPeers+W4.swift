#if canImport(CoreData)
import CoreData

extension CoreDataPeers {
    /// W4a ours: `context.count(for:)` without a predicate.
    static var countAll: Peer {
        countPeer { _ in ScoredItemModel.request() }
    }

    /// W4b ours: `count(for:)` with `score BETWEEN {lower, upper}` (the indexed attribute).
    static var countByScore: Peer {
        countPeer { count in ScoredItemModel.scoreRangeRequest("score", count: count) }
    }

    /// W4c ours: `count(for:)` with the same range of `unindexedScore`.
    static var countByUnindexedScore: Peer {
        countPeer { count in ScoredItemModel.scoreRangeRequest("unindexedScore", count: count) }
    }

    /// A W4 peer: inside `performAndWait`, ``Workload/w4CountsPerRun`` calls of
    /// `count(for: request)`; returns the sum of the counts. The run fails if the context then has
    /// any registered object (counting must make none). Set-up (not measured): the stack on the
    /// fixture copy, and the request.
    private static func countPeer(request makeRequest: @escaping (_ count: Int) -> NSFetchRequest<NSManagedObject>) -> Peer {
        Peer(name: "ours", family: .ours) { input in
            let stack = try CoreDataItemStack(storeURL: input.storeURL, settings: input.settings, model: ScoredItemModel.make())
            let request = makeRequest(input.count)
            return PreparedRun(
                body: {
                    try stack.context.performAndWait {
                        var total: Int64 = 0
                        for _ in 0..<Workload.w4CountsPerRun {
                            total += Int64(try stack.context.count(for: request))
                        }
                        guard stack.context.registeredObjects.isEmpty else {
                            throw BenchmarkError.unexpectedValue(
                                peer: "ours", detail: "count(for:) registered \(stack.context.registeredObjects.count) objects")
                        }
                        return total
                    }
                },
                tearDown: { try stack.close() })
        }
    }
}
#endif
