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

    /// W5c ours, prefetching in a child context: 5b run in a private-queue context whose parent
    /// is the stack's context, so that every row reaches the child through its parent.
    static var traversePrefetchingInChild: Peer {
        traversePeer(named: "ours-child-prefetch", inChild: true) { request in
            request.relationshipKeyPathsForPrefetching = [ParentChildTable.childrenKey]
        }
    }

    /// A W5 peer: `fetch` of every parent (the request set up by `configure`), then the sum of
    /// `serial + weight` over each parent's children. Set-up (not measured): the stack on the
    /// fixture copy, and for `inChild` a child context of the stack's context, reset after each
    /// run so that every run reads through the parent again.
    private static func traversePeer(
        named name: String, inChild: Bool = false, configure: @escaping (NSFetchRequest<NSManagedObject>) -> Void
    ) -> Peer {
        Peer(name: name, family: .ours) { input in
            let stack = try CoreDataItemStack(storeURL: input.storeURL, settings: input.settings, model: ParentChildModel.make())
            let context = inChild ? NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType) : stack.context
            if inChild { context.parent = stack.context }
            let request = ParentChildModel.parentsRequest()
            configure(request)
            return PreparedRun(
                body: {
                    try context.performAndWait {
                        defer { if inChild { context.reset() } }
                        return try context.fetch(request).reduce(0) { $0 &+ (try ParentChildModel.childrenSum(of: $1, peer: name)) }
                    }
                },
                tearDown: { try stack.close() })
        }
    }
}
#endif
