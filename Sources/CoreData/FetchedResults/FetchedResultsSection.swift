/// One section of a fetched results controller: its name and its objects in order, each with the
/// key that places it once it has been read (a controller fetching in batches reads the keys of
/// the objects its binary searches visit, not of every object).
final class FetchedResultsSection: NSFetchedResultsSectionInfo {
    /// An object and, once read, its place in the order.
    struct Entry {
        let object: NSManagedObject
        var key: FetchedResultsKey?
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
