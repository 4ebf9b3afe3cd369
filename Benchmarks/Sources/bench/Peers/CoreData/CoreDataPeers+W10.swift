#if canImport(CoreData)
import CoreData

extension CoreDataPeers {
    /// W10 ours: in one `performAndWait`, for each target item, `setValue(NSNumber, forKey: "i1")`
    /// and `save()`: one save of one changed object each time.
    ///
    /// Set-up (not measured): the stack on the fixture copy, and the target objects fetched.
    static var saveItemUpdates: Peer {
        Peer(name: "ours", family: .ours) { input in
            let stack = try CoreDataItemStack(storeURL: input.storeURL, settings: input.settings)
            return PreparedRun(
                body: try saveUpdates(of: Workload.w10Targets(count: input.count), on: stack, peer: "ours"),
                tearDown: { try stack.close() })
        }
    }

    /// W10's work on the items at `targets` (0-based indexes, increasing) of the store of
    /// `stack`. Call it in set-up: it fetches the objects with `i0 IN {…}` (their rows loaded),
    /// sorted by `i0` to match the save order, and returns the measured body: in one
    /// `performAndWait`, for each object, `setValue(NSNumber, forKey: "i1")` and `save()`.
    static func saveUpdates(of targets: [Int], on stack: CoreDataItemStack, peer: String) throws -> () throws -> Int64 {
        let objects = try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
            request.predicate = NSPredicate(format: "i0 IN %@", targets.map { NSNumber(value: Int64($0)) })
            request.sortDescriptors = [NSSortDescriptor(key: "i0", ascending: true)]
            return try stack.context.fetch(request)
        }
        guard objects.count == targets.count else {
            throw BenchmarkError.unexpectedValue(peer: peer, detail: "fetched \(objects.count) of \(targets.count) items")
        }
        return {
            try stack.context.performAndWait {
                for (object, index) in zip(objects, targets) {
                    object.setValue(NSNumber(value: Workload.w10NewValue(forItem: index)), forKey: Workload.w10UpdatedAttribute)
                    try stack.context.save()
                }
            }
            return Int64(targets.count)
        }
    }
}
#endif
