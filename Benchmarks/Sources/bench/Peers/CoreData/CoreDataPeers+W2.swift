#if canImport(CoreData)
import CoreData

extension CoreDataPeers {
    /// W2 ours (2a): `context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item"))` with the
    /// default `returnsObjectsAsFaults` (the fetch fills the row cache), then `value(forKey:)` for the
    /// ten attributes of every object, summed.
    static var fetchItems: Peer {
        fetchPeer(named: "ours") { _ in }
    }

    /// W2b ours: the same with `includesPropertyValues = false`, so reading the attributes fires the
    /// faults (which must be fetched in batches, never one SELECT per object).
    static var fetchItemFaults: Peer {
        fetchPeer(named: "ours-faults") { request in
            request.includesPropertyValues = false
        }
    }

    /// A W2 peer. Set-up (not measured): build the model and the coordinator, add the SQLite store
    /// on the fixture copy, make the private-queue context.
    private static func fetchPeer(
        named name: String, configure: @escaping (NSFetchRequest<NSManagedObject>) -> Void
    ) -> Peer {
        Peer(name: name, family: .ours) { input in
            let stack = try CoreDataItemStack(storeURL: input.storeURL, settings: input.settings)
            return PreparedRun(
                body: {
                    try stack.context.performAndWait {
                        let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
                        configure(request)
                        let items = try stack.context.fetch(request)
                        var sum: Int64 = 0
                        for item in items {
                            sum &+= try CoreDataItemStack.attributeSum(of: item, peer: name)
                        }
                        return sum
                    }
                },
                tearDown: { try stack.close() })
        }
    }
}
#endif
