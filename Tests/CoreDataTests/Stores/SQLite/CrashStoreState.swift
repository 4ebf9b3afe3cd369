@testable import CoreDataCrashWriter
import CoreData

/// What a crash-test store holds, as the public API reads it; and what it must hold after a given
/// number of each writer's saves, computed from `CrashPlan` without a store.
struct CrashStoreState {
    struct BatchKey: Hashable, Comparable, CustomStringConvertible {
        let writer: String
        let number: Int

        static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.writer, lhs.number) < (rhs.writer, rhs.number)
        }

        var description: String {
            "\(writer)-\(number)"
        }
    }

    struct Batch: Equatable {
        var followedBy: Int
        var tag: String?
        /// The batch's items by index.
        var items: [Int: Item]
    }

    struct Item: Equatable {
        var name: String
        var payload: Data?
        var attachment: Data?
        var tags: Set<String>
    }

    var batches: [BatchKey: Batch] = [:]
    /// Every tag's name, with the batch it belongs to.
    var tags: [String: BatchKey?] = [:]
    /// The names of items that belong to no batch: a cascading delete must leave none.
    var looseItems: Set<String> = []

    /// The state after `count` saves of each writer.
    ///
    /// Only the last `window + 1` saves are replayed: what the earlier ones wrote is deleted by
    /// then, and the oldest batch that remains refers to nothing older than the first replayed.
    init(saves: [String: Int]) {
        for (writer, count) in saves {
            let plan = CrashPlan(writer: writer)
            for number in stride(from: max(1, count - CrashPlan.window), through: count, by: 1) {
                apply(number, of: plan)
            }
        }
    }

    /// The state after save `number` of a writer, which `CrashWriter.save(_:)` makes.
    private mutating func apply(_ number: Int, of plan: CrashPlan) {
        let key = BatchKey(writer: plan.writer, number: number)
        let previous = BatchKey(writer: plan.writer, number: number - 1)
        let tag = plan.tagName(batch: number)
        let itemTags = Set([tag] + [batches[previous]?.tag].compactMap { $0 })
        var items: [Int: Item] = [:]
        for index in 0..<plan.itemCount(batch: number) {
            items[index] = Item(
                name: plan.itemName(batch: number, item: index),
                payload: plan.payload(batch: number, item: index),
                attachment: plan.attachment(batch: number, item: index, revision: 0),
                tags: itemTags
            )
        }
        batches[key] = Batch(followedBy: 0, tag: tag, items: items)
        tags[tag] = key
        batches[previous]?.followedBy = number
        batches[BatchKey(writer: plan.writer, number: number - 2)]?.items[0]?.attachment = plan.attachment(batch: number - 2, item: 0, revision: 1)
        if let expired = batches.removeValue(forKey: BatchKey(writer: plan.writer, number: number - CrashPlan.window)), let expiredTag = expired.tag {
            tags[expiredTag] = nil
            batches = batches.mapValues { batch in
                var batch = batch
                for index in batch.items.keys {
                    batch.items[index]?.tags.remove(expiredTag)
                }
                return batch
            }
        }
    }

    /// Reads everything through a context (on its queue): every attachment is loaded, so a
    /// missing external file shows as a missing value.
    init(reading context: NSManagedObjectContext) throws {
        for batch in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Batch")) {
            batches[Self.key(of: batch)] = Batch(
                followedBy: (batch.value(forKey: "followedBy") as? Int) ?? -1,
                tag: (batch.value(forKey: "tag") as? NSManagedObject)?.value(forKey: "name") as? String,
                items: [:]
            )
        }
        for item in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item")) {
            let name = item.value(forKey: "name") as? String ?? "?"
            guard let batch = item.value(forKey: "batch") as? NSManagedObject else {
                looseItems.insert(name)
                continue
            }
            let tagNames = Self.objects(item.value(forKey: "tags")).compactMap { $0.value(forKey: "name") as? String }
            let index = item.value(forKey: "index") as? Int ?? -1
            batches[Self.key(of: batch), default: Batch(followedBy: -1, items: [:])].items[index] = Item(
                name: name,
                payload: item.value(forKey: "payload") as? Data,
                attachment: item.value(forKey: "attachment") as? Data,
                tags: Set(tagNames)
            )
        }
        for tag in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Tag")) {
            let batch = tag.value(forKey: "batch") as? NSManagedObject
            tags[tag.value(forKey: "name") as? String ?? "?"] = batch.map(Self.key(of:))
        }
    }

    /// A batch's key; a batch without writer or number (which no save makes) gets one no expected
    /// state has.
    private static func key(of batch: NSManagedObject) -> BatchKey {
        BatchKey(writer: batch.value(forKey: "writer") as? String ?? "?", number: batch.value(forKey: "number") as? Int ?? -1)
    }

    private static func objects(_ value: Any?) -> [NSManagedObject] {
        (value as? NSSet)?.allObjects.compactMap { $0 as? NSManagedObject } ?? []
    }

    /// The highest batch number of a writer, which is its last committed save (0 before any).
    func lastSave(of writer: String) -> Int {
        batches.keys.filter { $0.writer == writer }.map(\.number).max() ?? 0
    }

    /// How many attachments are large enough to live in files.
    var largeAttachmentCount: Int {
        batches.values.flatMap(\.items.values).count { ($0.attachment?.count ?? 0) >= CrashPlan.largeAttachmentSize }
    }

    /// The same state with every attachment left out.
    var withoutAttachments: CrashStoreState {
        var state = self
        state.batches = batches.mapValues { batch in
            var batch = batch
            batch.items = batch.items.mapValues { item in
                var item = item
                item.attachment = nil
                return item
            }
            return batch
        }
        return state
    }

    /// How this state differs from an expected one, one line per difference, for failure messages.
    func differences(from expected: CrashStoreState) -> [String] {
        var lines: [String] = []
        for key in Set(batches.keys).union(expected.batches.keys).sorted() {
            switch (batches[key], expected.batches[key]) {
            case (nil, _): lines.append("batch \(key) is missing")
            case (_, nil): lines.append("batch \(key) should not be there")
            case let (batch?, wanted?): lines += batch.differences(from: wanted).map { "batch \(key): \($0)" }
            }
        }
        for name in Set(tags.keys).union(expected.tags.keys).sorted() where tags[name] != expected.tags[name] {
            lines.append("tag \(name) belongs to \(Self.describe(tags[name])), not \(Self.describe(expected.tags[name]))")
        }
        lines += looseItems.sorted().map { "item \($0) belongs to no batch" }
        return lines
    }

    private static func describe(_ owner: BatchKey??) -> String {
        switch owner {
        case nil: "nothing (it is missing)"
        case .some(nil): "no batch"
        case .some(let key?): "batch \(key)"
        }
    }
}

extension CrashStoreState.Batch {
    func differences(from expected: Self) -> [String] {
        var lines: [String] = []
        if followedBy != expected.followedBy { lines.append("followedBy \(followedBy), not \(expected.followedBy)") }
        if tag != expected.tag { lines.append("tag \(tag ?? "nil"), not \(expected.tag ?? "nil")") }
        for index in Set(items.keys).union(expected.items.keys).sorted() {
            switch (items[index], expected.items[index]) {
            case (nil, _): lines.append("item \(index) is missing")
            case (_, nil): lines.append("item \(index) should not be there")
            case let (item?, wanted?): lines += item.differences(from: wanted).map { "item \(index): \($0)" }
            }
        }
        return lines
    }
}

extension CrashStoreState.Item {
    func differences(from expected: Self) -> [String] {
        var lines: [String] = []
        if name != expected.name { lines.append("name \(name), not \(expected.name)") }
        if payload != expected.payload { lines.append("payload of \(Self.describe(payload)), not \(Self.describe(expected.payload))") }
        if attachment != expected.attachment { lines.append("attachment of \(Self.describe(attachment)), not \(Self.describe(expected.attachment))") }
        if tags != expected.tags { lines.append("tags \(tags.sorted()), not \(expected.tags.sorted())") }
        return lines
    }

    private static func describe(_ data: Data?) -> String {
        data.map { "\($0.count) bytes" } ?? "nil"
    }
}
