/// The object IDs of a fetch made without property values, so that firing one of its faults
/// loads its neighbours' rows in the same query instead of one query per object.
final class FaultBatch {
    /// How many rows one query loads when the request sets no `fetchBatchSize`.
    static let defaultSize = 256

    let objectIDs: [NSManagedObjectID]
    let size: Int

    init(objectIDs: [NSManagedObjectID], size: Int) {
        self.objectIDs = objectIDs
        self.size = size > 0 ? size : Self.defaultSize
    }

    /// The IDs loaded together with the one at `index`: its window of `size` IDs.
    func window(containing index: Int) -> ArraySlice<NSManagedObjectID> {
        let start = index - index % size
        return objectIDs[start..<min(start.saturatingAdding(size), objectIDs.count)]
    }
}
