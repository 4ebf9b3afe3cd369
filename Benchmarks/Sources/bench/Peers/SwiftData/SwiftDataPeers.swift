#if canImport(SwiftData)
import SwiftData

/// The "ours-swiftdata" peers: the same workloads through our SwiftData API, written as a
/// SwiftData app writes them (`@Model` classes, `ModelContainer`, `ModelContext`,
/// `FetchDescriptor` with `#Predicate`), beside the Core Data peers, to measure what the layer
/// adds. A container keeps SwiftData's defaults (persistent history on, the store's own
/// pragmas), so W1 compares with Core Data's W1 into a store that records history.
enum SwiftDataPeers {
    /// W1's entity as a SwiftData model: ten optional Int64 attributes, as the Core Data model
    /// declares them, so that both write the same table and hashes.
    @Model final class Item {
        var i0: Int64?
        var i1: Int64?
        var i2: Int64?
        var i3: Int64?
        var i4: Int64?
        var i5: Int64?
        var i6: Int64?
        var i7: Int64?
        var i8: Int64?
        var i9: Int64?

        init(value: Int64) {
            i0 = value
            i1 = value
            i2 = value
            i3 = value
            i4 = value
            i5 = value
            i6 = value
            i7 = value
            i8 = value
            i9 = value
        }

        /// The sum of the ten attributes, as the other peers compute it.
        var attributeSum: Int64 {
            var sum: Int64 = 0
            sum &+= (i0 ?? 0) &+ (i1 ?? 0) &+ (i2 ?? 0) &+ (i3 ?? 0) &+ (i4 ?? 0)
            sum &+= (i5 ?? 0) &+ (i6 ?? 0) &+ (i7 ?? 0) &+ (i8 ?? 0) &+ (i9 ?? 0)
            return sum
        }
    }

    /// The entity of the 1M-row read workloads as a SwiftData model.
    @Model final class ScoredItem {
        var created: Date?
        var flag: Bool?
        var name: String?
        var price: Double?
        var score: Int64?
        var unindexedScore: Int64?

        init() {}
    }

    /// A container over the store file of a run, and a context on it.
    static func context<T: PersistentModel>(for type: T.Type, at url: URL) throws -> ModelContext {
        ModelContext(try ModelContainer(for: type, configurations: ModelConfiguration(url: url)))
    }
}
#endif
