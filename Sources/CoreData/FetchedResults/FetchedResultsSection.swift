/// One section of a fetched results controller: its name and its entries in order, each with
/// the key that places it.
final class FetchedResultsSection: NSFetchedResultsSectionInfo {
    /// An object of the results, or a row of the fetch whose object is not made yet.
    struct Entry {
        /// The object, once made: from the start for objects the controller was handed, on
        /// first use for rows its fetch found.
        var object: NSManagedObject?
        /// The object's row in the fetch's store; nil for objects the controller was handed
        /// before they were saved, or fetched without the store's rows.
        let row: FetchedResultsRows.Row?
        let key: FetchedResultsKey

        /// Whether this entry is `object`, whose row (if any) is `row`.
        func holds(_ object: NSManagedObject, row: FetchedResultsRows.Row?) -> Bool {
            if let held = self.object, held === object { return true }
            guard let row, let own = self.row else { return false }
            return own.primaryKey == row.primaryKey
        }
    }

    let name: String
    var indexTitle: String?
    var entries: [Entry]
    /// Makes the objects of entries that are still rows.
    private let rows: FetchedResultsRows?

    init(name: String, indexTitle: String?, entries: [Entry], rows: FetchedResultsRows?) {
        self.name = name
        self.indexTitle = indexTitle
        self.entries = entries
        self.rows = rows
    }

    var numberOfObjects: Int { entries.count }

    var objects: [Any]? { managedObjects }

    /// Every object of the section, made where entries are still rows.
    var managedObjects: [NSManagedObject] {
        makeObjects(in: entries.indices)
        return entries.compactMap(\.object)
    }

    /// Makes the objects of the entries at some positions that are still rows, as faults that
    /// load their rows a batch at a time.
    func makeObjects(in positions: Range<Int>) {
        guard let rows else { return }
        let missing = positions.filter { entries[$0].object == nil && entries[$0].row != nil }
        guard !missing.isEmpty else { return }
        for (position, object) in zip(missing, rows.objects(of: missing.compactMap { entries[$0].row })) {
            entries[position].object = object
        }
    }

    /// The object at a position, made with the others of its batch if it is still a row.
    func object(at position: Int) -> NSManagedObject? {
        if entries[position].object == nil {
            let size = rows?.batchSize ?? 1
            let start = position - position % size
            makeObjects(in: start..<min(start + size, entries.count))
        }
        return entries[position].object
    }

    /// Every entry's object ID, in order, without making objects.
    var objectIDs: [NSManagedObjectID] {
        entries.indices.compactMap(objectID(at:))
    }

    /// The ID of the object at a position, without making the object.
    func objectID(at position: Int) -> NSManagedObjectID? {
        if let object = entries[position].object { return object.objectID }
        return entries[position].row.flatMap { rows?.objectID(of: $0) }
    }
}
