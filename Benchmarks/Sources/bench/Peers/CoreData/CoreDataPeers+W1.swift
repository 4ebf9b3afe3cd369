#if canImport(CoreData)
import CoreData

extension CoreDataPeers {
    /// W1 ours: inside `performAndWait`, `insertNewObject(forEntityName: "Item", into:)` and ten
    /// `setValue(NSNumber, forKey:)` per item, then one `save()`.
    ///
    /// Set-up (not measured): build the model, the coordinator, add the SQLite store (which creates
    /// the file and its schema), make the private-queue context.
    static var insertItems: Peer {
        Peer(name: "ours", family: .ours) { input in
            let stack = try CoreDataItemStack(storeURL: input.storeURL, settings: input.settings)
            return PreparedRun(
                body: {
                    try stack.context.performAndWait {
                        try stack.insertItems(count: input.count)
                        try stack.context.save()
                    }
                    return Int64(input.count)
                },
                tearDown: { try stack.close() })
        }
    }
}
#endif
