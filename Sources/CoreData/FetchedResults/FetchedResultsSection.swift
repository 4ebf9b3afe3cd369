/// One section of a fetched results controller: its name and its objects in order, each with the
/// key that places it (kept so that a change is placed by binary search, without reading the
/// other objects again).
final class FetchedResultsSection: NSFetchedResultsSectionInfo {
    /// An object and its place in the order.
    struct Entry {
        let object: NSManagedObject
        let key: FetchedResultsKey
    }

    let name: String
    var indexTitle: String?
    var entries: [Entry]

    init(name: String, indexTitle: String?, entries: [Entry]) {
        self.name = name
        self.indexTitle = indexTitle
        self.entries = entries
    }

    var numberOfObjects: Int { entries.count }

    var objects: [Any]? { entries.map(\.object) }
}
