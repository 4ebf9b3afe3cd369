#if canImport(CoreData)
import CoreData

extension CoreDataPeers {
    /// W1-batch ours: one `NSBatchInsertRequest(entityName: "Item", dictionaryHandler:)` executed
    /// with `context.execute(_:)` inside `performAndWait`; the handler sets the ten attributes of
    /// item `i` to `NSNumber(i)` and returns true once every item is given. `resultType = .count`;
    /// returns the count the result reports.
    ///
    /// Set-up (not measured): the stack of W1 (model, coordinator, new SQLite store, context).
    static var batchInsertItems: Peer {
        Peer(name: "ours-batch", family: .ours) { input in
            let stack = try CoreDataItemStack(storeURL: input.storeURL, settings: input.settings)
            return PreparedRun(
                body: {
                    try stack.context.performAndWait {
                        let result = try stack.context.execute(batchInsertRequest(count: input.count))
                        guard let inserted = (result as? NSBatchInsertResult)?.result as? NSNumber else {
                            throw BenchmarkError.unexpectedValue(peer: "ours-batch", detail: "the batch insert returned \(result)")
                        }
                        return inserted.int64Value
                    }
                },
                tearDown: { try stack.close() })
        }
    }

    /// The request inserting `count` items (item `i` holding `(i, …, i)`) through its
    /// dictionary handler.
    private static func batchInsertRequest(count: Int) -> NSBatchInsertRequest {
        var index = 0
        let request = NSBatchInsertRequest(entityName: "Item", dictionaryHandler: { dictionary in
            guard index < count else { return true }
            let value = NSNumber(value: Int64(index))
            for name in CoreDataItemStack.attributeNames {
                dictionary[name] = value
            }
            index += 1
            return false
        })
        request.resultType = .count
        return request
    }
}
#endif
