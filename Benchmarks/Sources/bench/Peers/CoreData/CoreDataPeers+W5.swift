#if canImport(CoreData)
import CoreData

extension CoreDataPeers {
    /// W5a ours, naive: fetch every `Parent`, then for each parent `value(forKey: "children")`,
    /// which fires its to-many fault, and `value(forKey:)` of `serial` and `weight` of every child.
    static var traverseNaive: Peer {
        traversePeer(named: "ours-naive") { _ in }
    }

    /// W5b ours, prefetching: the same with `relationshipKeyPathsForPrefetching = ["children"]`, so
    /// that the fetch loads every parent's children (and their rows) up front.
    static var traversePrefetching: Peer {
        traversePeer(named: "ours-prefetch") { request in
            request.relationshipKeyPathsForPrefetching = [ParentChildTable.childrenKey]
        }
    }

    /// A W5 peer: `fetch` of every parent (the request set up by `configure`), then the sum of
    /// `serial + weight` over each parent's children. Set-up (not measured): the stack on the
    /// fixture copy.
    private static func traversePeer(
        named name: String, configure: @escaping (NSFetchRequest<NSManagedObject>) -> Void
    ) -> Peer {
        Peer(name: name, family: .ours) { input in
            let stack = try CoreDataItemStack(storeURL: input.storeURL, settings: input.settings, model: ParentChildModel.make())
            let request = ParentChildModel.parentsRequest()
            configure(request)
            return PreparedRun(
                body: {
                    try stack.context.performAndWait {
                        try stack.context.fetch(request).reduce(0) { $0 &+ (try ParentChildModel.childrenSum(of: $1, peer: name)) }
                    }
                },
                tearDown: { try stack.close() })
        }
    }
}
#endif
