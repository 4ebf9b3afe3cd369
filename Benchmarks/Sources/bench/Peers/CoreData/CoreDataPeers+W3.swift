#if canImport(CoreData)
import CoreData

extension CoreDataPeers {
    /// W3a ours: `fetch` with `score BETWEEN {lower, upper}` (the indexed attribute), then the sum
    /// of `value(forKey: "score")` over the objects.
    static var fetchByScore: Peer {
        fetchPeer { count in ScoredItemModel.scoreRangeRequest("score", count: count) }
    }

    /// W3b ours: the same on `unindexedScore`.
    static var fetchByUnindexedScore: Peer {
        fetchPeer { count in ScoredItemModel.scoreRangeRequest("unindexedScore", count: count) }
    }

    /// W3c ours: `name BEGINSWITH[c] "cd"`, sorted by `created`, `fetchLimit` 50.
    static var fetchByPrefix: Peer {
        fetchPeer { _ in
            let request = ScoredItemModel.request(predicate: "name BEGINSWITH[c] %@", ScoredItemTable.namePrefix)
            request.sortDescriptors = [NSSortDescriptor(key: "created", ascending: true)]
            request.fetchLimit = ScoredItemTable.prefixFetchLimit
            return request
        }
    }

    /// A W3 peer: `fetch(request)` and the sum of the objects' scores.
    private static func fetchPeer(request makeRequest: @escaping (_ count: Int) -> NSFetchRequest<NSManagedObject>) -> Peer {
        scoredItemPeer(request: makeRequest) { context, request in
            try scoreSum(of: request, in: context, peer: "ours")
        }
    }

    /// W3's measured work: `fetch(request)` and the sum of the objects' `value(forKey:
    /// "score")`. Call it on the context's queue.
    static func scoreSum(of request: NSFetchRequest<NSManagedObject>, in context: NSManagedObjectContext, peer: String) throws -> Int64 {
        try context.fetch(request).reduce(0) { $0 &+ (try ScoredItemModel.score(of: $1, peer: peer)) }
    }

    /// A peer on the shared `ScoredItem` fixture. Set-up (not measured): the stack on the fixture
    /// copy, and the request (its predicate parsed). The measured run calls `body` inside
    /// `performAndWait`.
    static func scoredItemPeer(
        request makeRequest: @escaping (_ count: Int) -> NSFetchRequest<NSManagedObject>,
        body: @escaping (NSManagedObjectContext, NSFetchRequest<NSManagedObject>) throws -> Int64
    ) -> Peer {
        Peer(name: "ours", family: .ours) { input in
            let stack = try CoreDataItemStack(storeURL: input.storeURL, settings: input.settings, model: ScoredItemModel.make())
            let request = makeRequest(input.count)
            return PreparedRun(
                body: { try stack.context.performAndWait { try body(stack.context, request) } },
                tearDown: { try stack.close() })
        }
    }
}
#endif
