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

    /// A W4 peer: ``Workload/w4CountsPerRun`` calls of `count(for: request)`; returns the sum of
    /// the counts. The run fails if the context then has any registered object (counting must
    /// make none).
    private static func countPeer(request makeRequest: @escaping (_ count: Int) -> NSFetchRequest<NSManagedObject>) -> Peer {
        scoredItemPeer(request: makeRequest) { context, request in
            var total: Int64 = 0
            for _ in 0..<Workload.w4CountsPerRun {
                total += Int64(try context.count(for: request))
            }
            guard context.registeredObjects.isEmpty else {
                throw BenchmarkError.unexpectedValue(peer: "ours", detail: "count(for:) registered \(context.registeredObjects.count) objects")
            }
            return total
        }
    }
}
#endif
