/// The results of `NSManagedObjectContext.fetchBatched(_:)`: a random-access collection that holds
/// only the matching object IDs, in compact form, and makes the objects one batch at a time as
/// they are read.
///
/// On Apple platforms, a fetch with a `fetchBatchSize` returns an array that loads its objects
/// batch by batch. A Swift array on Linux cannot load lazily, so `fetch(_:)` returns every
/// object at once (as faults that load their rows batch by batch); this collection is the lazy
/// form, for iterating over results too large to hold as objects. Reading an element makes the
/// objects of its batch and loads their rows in one query; the collection keeps one batch alive,
/// and the context holds no other reference to unchanged objects, so iterating over a million
/// rows uses the memory of one batch (call `reset()` on the context now and then if you keep
/// objects, as on Apple platforms).
///
/// Use the collection on the context's queue, like the objects it returns.
public struct BatchedFetchResults<ResultType: NSFetchRequestResult>: RandomAccessCollection {
    private let storage: BatchedFetchStorage

    init(storage: BatchedFetchStorage) {
        self.storage = storage
    }

    /// The position of the first object: 0.
    public var startIndex: Int { 0 }

    /// The number of objects the fetch found.
    public var endIndex: Int { storage.count }

    /// The object at `position`, made (with its batch) if it is not yet.
    public subscript(position: Int) -> ResultType {
        // `fetchBatched(_:)` checked that every entity's class, and every object registered for
        // those entities, is a `ResultType`; objects it makes later are of those classes.
        unsafeDowncast(storage.object(at: position), to: ResultType.self)
    }

    /// The number of objects in a batch.
    public var batchSize: Int {
        storage.batchSize
    }
}

/// The state behind `BatchedFetchResults`: the IDs of each store's matches, and the batch of
/// objects made last.
// Used on the queue of the context that made it, like managed objects.
final class BatchedFetchStorage {
    private let context: NSManagedObjectContext
    /// Each store's matching IDs, in result order, and where its positions start; empty when
    /// `objects` holds every result.
    private let segments: [(start: Int, objectIDs: FetchedObjectIDs)]
    let count: Int
    let batchSize: Int
    private var residentStart = 0
    private var resident: [NSManagedObject] = []

    init(context: NSManagedObjectContext, objectIDs: [FetchedObjectIDs], batchSize: Int) {
        self.context = context
        var start = 0
        segments = objectIDs.map { segment in
            defer { start += segment.count }
            return (start, segment)
        }
        count = start
        self.batchSize = batchSize > 0 ? batchSize : FaultBatch.defaultSize
    }

    /// Results that are already objects: every one is resident.
    init(context: NSManagedObjectContext, objects: [NSManagedObject], batchSize: Int) {
        self.context = context
        segments = []
        count = objects.count
        resident = objects
        self.batchSize = batchSize > 0 ? batchSize : FaultBatch.defaultSize
    }

    func object(at position: Int) -> NSManagedObject {
        precondition(position >= 0 && position < count, "Index \(position) out of range of \(count) fetched objects")
        if position < residentStart || position >= residentStart + resident.count {
            loadBatch(containing: position)
        }
        return resident[position - residentStart]
    }

    /// Makes the objects of the batch holding `position`, with their rows read in one query.
    private func loadBatch(containing position: Int) {
        guard let segment = segments.last(where: { $0.start <= position }) else { return }
        let offset = position - segment.start
        let start = offset - offset % batchSize
        let objectIDs = segment.objectIDs.objectIDs(in: start..<min(start + batchSize, segment.objectIDs.count))
        residentStart = segment.start + start
        resident = context.objectsLoadingRows(for: objectIDs)
    }
}
