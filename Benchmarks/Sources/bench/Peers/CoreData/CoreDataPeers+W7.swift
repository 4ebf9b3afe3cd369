#if canImport(CoreData)
import CoreData

extension CoreDataPeers {
    /// W7a ours: `NSBatchUpdateRequest(entityName: "ScoredItem")` with `score < k`,
    /// `propertiesToUpdate = ["flag": true]` and `resultType = .updatedObjectsCountResultType`,
    /// executed with `context.execute(_:)`; returns the count.
    static var batchUpdateFlags: Peer {
        batchPeer { count in
            let request = NSBatchUpdateRequest(entityName: ScoredItemTable.entityName)
            request.predicate = scoreBelowBound(count: count)
            request.propertiesToUpdate = ["flag": NSNumber(value: true)]
            request.resultType = .updatedObjectsCountResultType
            return request
        } count: { result in
            (result as? NSBatchUpdateResult)?.result as? NSNumber
        }
    }

    /// W7b ours: `NSBatchDeleteRequest(fetchRequest:)` of the rows with `score < k`,
    /// `resultType = .resultTypeCount`; returns the count.
    static var batchDeleteItems: Peer {
        batchPeer { count in
            let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: ScoredItemTable.entityName)
            fetch.predicate = scoreBelowBound(count: count)
            let request = NSBatchDeleteRequest(fetchRequest: fetch)
            request.resultType = .resultTypeCount
            return request
        } count: { result in
            (result as? NSBatchDeleteResult)?.result as? NSNumber
        }
    }

    /// `score < k`: the 10% of the rows W7 changes.
    private static func scoreBelowBound(count: Int) -> NSPredicate {
        NSPredicate(format: "score < %@", NSNumber(value: ScoredItemTable.batchScoreBound(count: count)))
    }

    /// A W7 peer executing the request `makeRequest` builds and returning the count its result
    /// reports. Set-up (not measured): the stack on the fixture copy, and the request (its
    /// predicate parsed).
    private static func batchPeer(
        request makeRequest: @escaping (_ count: Int) -> NSPersistentStoreRequest,
        count readCount: @escaping (NSPersistentStoreResult) -> NSNumber?
    ) -> Peer {
        Peer(name: "ours", family: .ours) { input in
            let stack = try CoreDataItemStack(storeURL: input.storeURL, settings: input.settings, model: ScoredItemModel.make())
            let request = makeRequest(input.count)
            return PreparedRun(
                body: {
                    try stack.context.performAndWait {
                        let result = try stack.context.execute(request)
                        guard let count = readCount(result) else {
                            throw BenchmarkError.unexpectedValue(peer: "ours", detail: "the batch request returned \(result)")
                        }
                        return count.int64Value
                    }
                },
                tearDown: { try stack.close() })
        }
    }
}
#endif
