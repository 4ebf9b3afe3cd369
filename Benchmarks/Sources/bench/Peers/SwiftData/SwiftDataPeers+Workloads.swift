#if canImport(SwiftData)
import SwiftData

extension SwiftDataPeers {
    /// W1-swiftdata: `context.insert(Item(value: i))` for each item, then one `save()`.
    static var insertItems: Peer {
        Peer(name: "ours-swiftdata", family: .ours) { input in
            let context = try context(for: Item.self, at: input.storeURL)
            return PreparedRun(body: {
                for index in 0..<input.count {
                    context.insert(Item(value: Int64(index)))
                }
                try context.save()
                return Int64(input.count)
            }, tearDown: {})
        }
    }

    /// W2-swiftdata: `context.fetch(FetchDescriptor<Item>())`, then the ten properties of each.
    static var fetchItems: Peer {
        Peer(name: "ours-swiftdata", family: .ours) { input in
            let context = try context(for: Item.self, at: input.storeURL)
            return PreparedRun(body: {
                try context.fetch(FetchDescriptor<Item>()).reduce(0) { $0 &+ $1.attributeSum }
            }, tearDown: {})
        }
    }

    /// W3a-swiftdata: `#Predicate { $0.score >= lower && $0.score <= upper }` on the indexed
    /// attribute, then the score of each model.
    static var fetchByScore: Peer {
        Peer(name: "ours-swiftdata", family: .ours) { input in
            let context = try context(for: ScoredItem.self, at: input.storeURL)
            let range = ScoredItemTable.scoreRange(count: input.count)
            let lower = range.lowerBound
            let upper = range.upperBound
            let descriptor = FetchDescriptor<ScoredItem>(predicate: #Predicate { item in
                item.score != nil && item.score! >= lower && item.score! <= upper
            })
            return PreparedRun(body: {
                try context.fetch(descriptor).reduce(0) { $0 &+ ($1.score ?? 0) }
            }, tearDown: {})
        }
    }
}
#endif
