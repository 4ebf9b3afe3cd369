/// The object IDs of a fetch that did not load rows (without property values, or with a
/// `fetchBatchSize`), so that firing one of its faults loads its window of neighbours' rows in
/// the same query instead of one query per object.
final class FaultBatch {
    /// How many rows one query loads when the request sets no `fetchBatchSize`.
    static let defaultSize = 256

    let objectIDs: FetchedObjectIDs
    let size: Int

    init(objectIDs: FetchedObjectIDs, size: Int) {
        self.objectIDs = objectIDs
        self.size = size > 0 ? size : Self.defaultSize
    }

    /// The positions loaded together with the one at `index`: its window of `size` positions.
    func window(containing index: Int) -> Range<Int> {
        let start = index - index % size
        return start..<min(start.saturatingAdding(size), objectIDs.count)
    }
}
